"""build.py ships the start-up snapshot as its delta from the interpreter: the memory's
initial image (the module's active data segments) XOR-ed out, which the page's worker
XORs back in (web/workers/snapshot-delta.mjs, snapshotFromDelta; issue 45), without
the delta's pages of zeros (snapshot_pages; tests/js/snapshot-delta.test.mjs reads them)."""

from __future__ import annotations

import pytest

from tests.helpers import load_build

build = load_build()


def leb(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def active(offset: int, data: bytes, flags: int = 0) -> bytes:
    memory = leb(0) if flags == 2 else b""
    return leb(flags) + memory + b"\x41" + leb(offset) + b"\x0b" + leb(len(data)) + data


def passive(data: bytes) -> bytes:
    return leb(1) + leb(len(data)) + data


def module(*segments: bytes) -> bytes:
    """A WebAssembly module with a custom section (skipped) and a data section."""
    custom = b"\x00" + leb(5) + b"\x04name"
    body = leb(len(segments)) + b"".join(segments)
    return b"\0asm\x01\0\0\0" + custom + b"\x0b" + leb(len(body)) + body


def snapshot(memory: bytes) -> bytes:
    """Pyodide's layout: a header whose second word says where the memory starts."""
    header = b"\0snp" + (32).to_bytes(4, "little") + bytes(24)
    return header + memory


def test_the_active_data_segments_are_read_at_their_offsets() -> None:
    wasm = module(active(3, b"abc"), passive(b"zz"), active(200, b"\xff" * 2, flags=2))
    assert build.wasm_data_segments(wasm) == [(3, b"abc"), (200, b"\xff\xff")]


def test_the_delta_is_zero_where_the_memory_is_the_modules_and_undoes_itself() -> None:
    wasm = module(active(3, b"abc"), active(300, b"\x01\x02"))
    memory = bytearray(512)
    memory[3:6] = b"abc"
    memory[300:302] = b"\x01\x07"  # the program changed one byte of its data
    memory[400] = 9  # and wrote beyond it
    snap = snapshot(bytes(memory))
    delta = build.snapshot_delta(snap, wasm)
    assert delta[:32] == snap[:32]
    assert delta[32 + 3 : 32 + 6] == bytes(3)
    assert delta[32 + 300 : 32 + 302] == b"\x00\x05"
    assert delta[32 + 400] == 9
    assert build.snapshot_delta(delta, wasm) == snap


@pytest.mark.parametrize(
    ("wasm", "message"),
    [
        (b"not a module", "not a WebAssembly module"),
        (module(leb(3)), "flags 3"),
        (module(leb(0) + b"\x23\x00\x0b" + leb(0)), "other than i32.const"),
    ],
    ids=["not-wasm", "bad-flags", "global-offset"],
)
def test_a_module_it_cannot_read_is_refused(wasm: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build.wasm_data_segments(wasm)


def test_a_snapshot_smaller_than_the_modules_data_is_refused() -> None:
    with pytest.raises(ValueError, match="smaller"):
        build.snapshot_delta(snapshot(bytes(4)), module(active(2, b"abcd")))


def test_the_pages_of_zeros_are_left_out_and_put_back() -> None:
    """snapshot_pages drops the delta's pages of zeros (two thirds of the real one) and
    snapshot_from_pages, as the worker's expandPages, puts them back; a short last page too."""
    data = bytearray(4 * 16 + 5)
    data[3] = 1  # page 0
    data[16 + 15] = 2  # page 1, its last byte: one run with page 0
    data[-1] = 4  # the short last page, after two pages of zeros
    packed = build.snapshot_pages(bytes(data), page=16)
    assert packed[:4] == b"PWSP"
    words = [int.from_bytes(packed[at : at + 4], "little") for at in range(4, 32, 4)]
    assert words == [len(data), 16, 2, 0, 2, 4, 1]  # length, page size, runs: (first, count)
    assert packed[32:] == bytes(data[:32]) + bytes(data[64:])
    assert build.snapshot_from_pages(packed) == bytes(data)
    assert build.snapshot_from_pages(build.snapshot_pages(bytes(100), page=16)) == bytes(100)


@pytest.mark.parametrize(
    ("packed", "message"),
    [
        (b"PWSX" + bytes(12), "not a snapshot in pages"),
        (build.snapshot_pages(b"\x01" * 20, page=16) + b"!", "beyond its runs"),
    ],
    ids=["magic", "trailing-bytes"],
)
def test_a_snapshot_in_pages_it_cannot_read_is_refused(packed: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build.snapshot_from_pages(packed)
