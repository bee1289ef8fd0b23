// node --test: the archive scheduler (web/batch/archive-run.mjs) over a pool of stand-in workers
// that answer from an in-memory archive as pywall's archive_* requests do (the real
// workers are driven in Chromium by tests/browser/test_archives_page.py). Checked: every
// game is delivered once and in the archive's order, the run's tally receives each
// chunk's audit records in that order, Stop is obeyed, an empty archive ends, a failure
// ends the run with it, and every worker's part is closed at the end.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.navigator = { hardwareConcurrency: 3 }; // pool.mjs: one core left for the page
const { runArchive } = await import("../../web/batch/archive-run.mjs");

const tick = () => new Promise((r) => setTimeout(r, Math.random() * 3));

// A pool of `size` workers over an archive of `games` games; `failAt`: archive_next
// from this game on fails.
function fakePool({ size = 2, games = 1000, parallel = true, failAt = Infinity } = {}) {
  const log = { opened: [], closed: [], tallied: [], chunks: [], wanted: [] };
  const listeners = new Set();
  const workers = [];
  for (let index = 0; index < size; index++) {
    // A worker answers its requests one at a time, in the order they came (a worker's
    // message queue); the delay of each answer is random.
    let queue = Promise.resolve();
    const serve = async (type, payload) => {
      await tick();
      if (type === "archive_open") {
        log.opened.push(payload.run);
        return { survey: { parallel }, total: games };
      }
      if (type === "archive_next") {
        if (payload.start + payload.limit > failAt) throw new Error("the worker failed");
        const end = Math.min(games, payload.start + payload.limit);
        const rows = [];
        for (let g = payload.start; g < end; g++) rows.push({ game: g });
        log.chunks.push({ worker: index, start: payload.start, got: rows.length });
        return { rows, records: rows.map((r) => ({ record: r.game })), ms: 5 };
      }
      if (type === "tally_add") {
        log.tallied.push(...payload.records.map((r) => r.record));
        return {};
      }
      if (type === "archive_close") {
        log.closed.push(payload.run);
        return {};
      }
      throw new Error(`unexpected request ${type}`);
    };
    const w = { index, holds: 0, request: (type, payload) => {
      const answer = queue.then(() => serve(type, payload));
      queue = answer.catch(() => {});
      return answer;
    } };
    workers.push(w);
  }
  const pool = {
    first: workers[0],
    usable: () => workers.filter((w) => w.started),
    want: (n) => {
      log.wanted.push({ n, opened: log.opened.length });
      workers.slice(0, n).forEach((w) => { w.started = true; });
      for (const l of listeners) l();
    },
    listen: (l) => { listeners.add(l); return () => listeners.delete(l); },
    trim: () => {},
    memory: async () => workers.map(() => ({ wasm: 1 })),
  };
  workers[0].started = true;
  return { pool, workers, log };
}

function run(pool, { stopAfter = Infinity, file = {} } = {}) {
  const delivered = [];
  let handle;
  handle = runArchive({
    pool, run: "r1", name: "logs.db", file,
    onOpen: () => {},
    onRows: (answer) => {
      delivered.push(...answer.rows.map((r) => r.game));
      if (delivered.length >= stopAfter) handle.stop();
    },
    onProgress: () => {},
  });
  return handle.done.then((result) => ({ result, delivered }));
}

test("every game once, in the archive's order, its records tallied in that order, by both workers", async () => {
  const { pool, log, workers } = fakePool({ size: 2, games: 1500 });
  const { result, delivered } = await run(pool);
  const all = [...Array(1500).keys()];
  assert.deepEqual(delivered, all);
  assert.deepEqual(log.tallied, all);
  assert.equal(result.done, 1500);
  assert.equal(result.cancelled, false);
  assert.equal(result.failed, null);
  assert.ok(new Set(log.chunks.map((c) => c.worker)).size === 2, "the second worker took chunks");
  assert.deepEqual(log.closed.sort(), ["r1/0", "r1/1"]);
  assert.ok(workers.every((w) => w.holds === 0), "every part released");
});

test("a small archive is checked by the first worker alone", async () => {
  const { pool, log } = fakePool({ size: 2, games: 120 });
  const { delivered } = await run(pool);
  assert.deepEqual(delivered, [...Array(120).keys()]);
  assert.deepEqual([...new Set(log.chunks.map((c) => c.worker))], [0]);
});

test("an archive that cannot be read from the middle stays with one worker", async () => {
  const { pool, log } = fakePool({ size: 2, games: 900, parallel: false });
  const { delivered } = await run(pool);
  assert.equal(delivered.length, 900);
  assert.deepEqual([...new Set(log.chunks.map((c) => c.worker))], [0]);
});

test("an empty archive ends with nothing delivered", async () => {
  const { pool } = fakePool({ games: 0 });
  const { result, delivered } = await run(pool);
  assert.deepEqual(delivered, []);
  assert.equal(result.done, 0);
  assert.equal(result.failed, null);
});

test("Stop: no chunk is handed out after it, what was delivered is a prefix, the run is closed", async () => {
  const { pool, log } = fakePool({ size: 2, games: 5000 });
  const { result, delivered } = await run(pool, { stopAfter: 100 });
  assert.equal(result.cancelled, true);
  assert.ok(delivered.length >= 100 && delivered.length < 5000, `${delivered.length} delivered`);
  assert.deepEqual(delivered, [...Array(delivered.length).keys()]);
  assert.ok(log.closed.includes("r1"), "the run's tally is closed on a stop");
});

test("a worker's failure ends the run with that error, and nothing is delivered out of order", async () => {
  const { pool, log } = fakePool({ size: 2, games: 3000, failAt: 1000 });
  const { result, delivered } = await run(pool);
  assert.equal(result.failed.message, "the worker failed");
  assert.ok(delivered.length <= 1000);
  assert.deepEqual(delivered, [...Array(delivered.length).keys()]);
  assert.ok(log.closed.includes("r1"));
});

test("a large file starts the other workers at once, while the first surveys it", async () => {
  const { pool, log } = fakePool({ size: 2, games: 1500 });
  const { result } = await run(pool, { file: { size: 6 * 2 ** 20 } });
  assert.equal(result.done, 1500);
  assert.deepEqual(log.wanted[0], { n: 2, opened: 0 }, "wanted before the first worker's survey came back");
  assert.deepEqual(log.opened.filter((name) => name === "r1/0"), ["r1/0"], "the first worker opened it once");
});

test("a small file starts no other worker before its survey", async () => {
  const { pool, log } = fakePool({ size: 2, games: 120 });
  await run(pool, { file: { size: 600_000 } });
  assert.deepEqual(log.wanted, []);
});

test("the run's profile: each worker's games and time in Python, the records added", async () => {
  const { pool } = fakePool({ size: 2, games: 1500 });
  const { result } = await run(pool);
  const { workers, tally, page } = result.profile;
  assert.deepEqual(workers.map((w) => w.worker).sort(), [0, 1]);
  assert.equal(workers.reduce((n, w) => n + w.games, 0), 1500);
  assert.ok(workers.every((w) => w.python > 0 && w.open >= w.asked && w.last >= w.open));
  assert.ok(Number.isFinite(tally) && page >= 0);
});
