"""Issue 23's reproducers through the real command: inputs small in bytes but large in
work end in a clear message, in bounded time and memory (the limits of
test_cli_hostile.py: 60 s, 300 MB peak of the process tree). Before pywall.core.limits, the
16 MiB log of bare INIT tags took 141 s and 6.7 GB in ``pywall verify --json``, the log
of repeated altered rounds 470 MB, the 16 KB gzip of a JSON record 460 MB. Measured
figures: benchmarks/bench_hostile.py (the README's reliability table)."""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

from tests.helpers import TENHOU, log_text
from tests.unit.test_bounds import stored_zip
from tests.unit.test_cli_hostile import MAX_RSS_MB, assert_clean, cli

LOG = TENHOU / "tenhou-python-bot" / "1.txt"
SIZE = 16 * 1024 * 1024


def _head_round_init() -> tuple[str, str, str]:
    text = log_text(LOG)
    first = text.index("<INIT")
    second = text.index("<INIT", first + 1)
    return text[:first], text[first:second], text[first : text.index(">", first) + 1]


def bare_inits(path: Path) -> Path:
    """16 MiB: the real log's first INIT tag 67,635 times, nothing between them."""
    head, _, init = _head_round_init()
    path.write_text(head + init * ((SIZE - len(head) - 20) // len(init)) + "</mjloggm>")
    return path


def altered_rounds(path: Path) -> Path:
    """16 MiB: the real log's first round with its first draw changed, 17,346 times."""
    head, rnd, _ = _head_round_init()
    at = rnd.index("<T")
    end = rnd.index("/>", at)
    rnd = rnd[:at] + f"<T{(int(rnd[at + 2 : end]) + 4) % 136}" + rnd[end:]
    path.write_text(head + rnd * ((SIZE - len(head) - 20) // len(rnd)) + "</mjloggm>")
    return path


def gzip_of_objects(path: Path) -> Path:
    """16 KB of gzip: 16 MiB of JSON holding 5.6 million empty objects."""
    path.write_bytes(gzip.compress(b'{"a":[' + b"{}," * (SIZE // 3 - 4) + b"{}]}", 9))
    return path


def test_a_16_mib_log_of_bare_init_tags_is_refused_quickly(tmp_path: Path) -> None:
    run = cli(
        "verify",
        "--json",
        str(bare_inits(tmp_path / "inits.xml")),
        stdout_path=str(tmp_path / "out"),
    )
    assert_clean(run)
    out = (tmp_path / "out").read_text()
    assert run.code == 2 and "a game of over 100 rounds (real games have about 30)" in out
    assert (tmp_path / "out").stat().st_size < 10_000 and run.rss_mb < MAX_RSS_MB


def test_a_log_of_repeated_altered_rounds_is_refused_quickly(tmp_path: Path) -> None:
    run = cli("verify", str(altered_rounds(tmp_path / "altered.xml")), str(LOG))
    assert_clean(run)
    assert run.code == 2 and "a game of over 100 rounds" in run.out and "\nOK" in run.out
    assert run.rss_mb < MAX_RSS_MB


def test_a_16_kb_gzip_json_record_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    record = gzip_of_objects(tmp_path / "objects.json.gz")
    assert record.stat().st_size < 20_000
    run = cli("verify", "--jsonl", str(record), str(LOG))
    assert_clean(run)
    assert (
        run.code == 2
        and "holds over 1,000,000 values" in run.out
        and '"status":"verified"' in run.out
    )
    assert run.rss_mb < MAX_RSS_MB


def test_an_empty_zip_in_a_batch_is_reported(tmp_path: Path) -> None:
    empty = tmp_path / "empty.zip"
    zipfile.ZipFile(empty, "w").close()
    (tmp_path / "names.zip").write_bytes(stored_zip([b"a\xff.xml"], utf8=True))
    run = cli("verify", str(empty), str(tmp_path / "names.zip"), str(LOG))
    assert_clean(run)
    lines = run.out.splitlines()
    assert run.code == 2 and len(lines) == 4, run.out
    assert lines[0].startswith("ERROR") and "empty.zip: the zip holds no files" in lines[0]
    assert (
        lines[1].startswith("ERROR")
        and "names.zip/a?.xml" in lines[1]
        and "not UTF-8" not in lines[2]
    )
    assert lines[2].startswith("OK")
