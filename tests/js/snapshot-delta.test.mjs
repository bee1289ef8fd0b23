// node --test: the start-up snapshot as build.py ships it, made whole in the worker
// (web/workers/snapshot-delta.mjs): the pages of zeros put back (build.py snapshot_pages,
// the same example as tests/unit/test_build_snapshot.py), the interpreter's data XOR-ed in.
import { test } from "node:test";
import assert from "node:assert/strict";
import { dataSegments, expandPages, snapshotFromDelta } from "../../web/workers/snapshot-delta.mjs";

const u32s = (...words) => new Uint8Array(new Uint32Array(words).buffer); // little-endian here

function shipped(header, ...runs) {
  const parts = [new TextEncoder().encode("PWSP"), u32s(...header), ...runs];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

test("the pages left out come back as zeros, a short last page included", () => {
  const data = new Uint8Array(4 * 16 + 5);
  data[3] = 1;
  data[16 + 15] = 2;
  data[data.length - 1] = 4;
  // length, page size, two runs: pages 0-1, then page 4 (5 bytes)
  const bytes = shipped([data.length, 16, 2, 0, 2, 4, 1], data.subarray(0, 32), data.subarray(64));
  assert.deepEqual(expandPages(bytes), data);
});

test("a snapshot not in pages, or whose runs do not fit its bytes, is refused", () => {
  assert.throws(() => expandPages(new Uint8Array(20)), /not in pages/);
  const runs = shipped([40, 16, 1, 0, 2], new Uint8Array(32));
  assert.throws(() => expandPages(runs.subarray(0, runs.length - 1)), /past its end/);
  assert.throws(() => expandPages(shipped([40, 16, 1, 0, 2], new Uint8Array(33))), /beyond its pages/);
});

// A module whose data section puts "abc" at 3 and 01 02 at 300 (as the Python test's).
function leb(n) {
  const out = [];
  do {
    const byte = n & 0x7f;
    n >>= 7;
    out.push(n ? byte | 0x80 : byte);
  } while (n);
  return out;
}
function wasmModule(segments) {
  const body = [...leb(segments.length)];
  for (const [offset, data] of segments) body.push(0, 0x41, ...leb(offset), 0x0b, ...leb(data.length), ...data);
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0x0b, ...leb(body.length), ...body]);
}

test("the interpreter's data is XOR-ed back into the memory after the header", () => {
  const wasm = wasmModule([[3, [0x61, 0x62, 0x63]], [300, [1, 2]]]);
  assert.deepEqual(dataSegments(wasm).map(([o, d]) => [o, [...d]]), [[3, [0x61, 0x62, 0x63]], [300, [1, 2]]]);
  const memory = new Uint8Array(512);
  memory[301] = 5; // the program changed one byte of its data (2 -> 7: XOR 5)
  memory[400] = 9; // and wrote beyond it
  const snapshot = new Uint8Array(32 + 512);
  snapshot.set(u32s(0, 32), 0); // Pyodide's header: where the memory starts
  snapshot.set(memory, 32);
  const whole = snapshotFromDelta(shipped([snapshot.length, 16, 1, 0, 34], snapshot), wasm);
  assert.deepEqual([...whole.subarray(32 + 3, 32 + 6)], [0x61, 0x62, 0x63]);
  assert.deepEqual([...whole.subarray(32 + 300, 32 + 302)], [1, 7]);
  assert.equal(whole[32 + 400], 9);
});
