// One archive checked over the pool of workers (pool.mjs). The first worker opens the
// chosen File and surveys it (game count; a database's seek marks); when the archive
// is large enough and can be read from the middle, the other workers start and open
// the same File with that survey, so each reads only its own chunks (nothing is
// copied between workers). Chunks of games go, in the archive's order, to whichever
// worker is free, sized so that each takes about CHUNK_MS; their rows come back in
// any order and are handed on in the archive's order, and so are the games' audit
// records, to the first worker's tally of the run (a game in two chunks counts once; it
// keeps the File to read a game again when a second copy of it comes).
// A worker holds two chunks at a time, so it never waits for the page between two.
// Stop: no chunk is handed out any more; the ones under way finish, then every
// worker closes the run, and nothing arrives after the end.

import { poolSize } from "../workers/pool.mjs";

const CHUNK_MS = 250; // aim per chunk: progress several times a second, Stop soon obeyed
const CHUNK_MIN = 10;
const CHUNK_MAX = 200;
const FIRST_CHUNK = 20; // a worker's first chunks: small, so the first rows come soon
const DEPTH = 2; // chunks a worker holds at once
const SPREAD_FROM = 2 * CHUNK_MAX; // fewer games: one worker checks them before another starts
// A file this large holds about SPREAD_FROM games or more (a game is 4-8 KB compressed): the
// other workers start at once, while the first surveys it, not after (their start-up took
// a tenth to a fifth of a 1,000-game run, most of it with one worker checking).
const SPREAD_BYTES = 2 * 2 ** 20;
const MISMATCH_DETAILS = 50; // mismatched games sent with their walls, over all workers
const PROFILED_CHUNKS = 100; // the first chunks' timeline kept for the benchmarks

// {pool, run, name, file, onOpen({total, survey}), onRows({rows, details}), onProgress({done, total, workers})}
// -> {done: Promise<{done, total, cancelled, seconds, ended, failed, memory, profile}>, stop()}
// (for the benchmarks: memory, each worker's WebAssembly memory in bytes at the end; profile,
// where the run's time went, in ms from its start: each worker's opening, chunks, games and
// time in Python, whether it reads the File lazily, the first worker's audit records added,
// the page's own work per chunk; chunks: the first ones, [worker, start, games, ms in Python,
// ms from the start when answered])
export function runArchive({ pool, run, name, file, onOpen, onRows, onProgress }) {
  const started = performance.now();
  const s = {
    survey: null, total: 0, end: Infinity, next: 0, received: 0, stopped: false, failed: null,
    parts: new Map(), // worker -> {name, state: "opening" | "open" | "closed", inFlight, size, chunks}
    waiting: new Map(), // start -> chunk answered ahead of an earlier one
    delivered: 0, // games handed on in order
    fed: Promise.resolve(), // the audit records sent so far
    finished: false,
    profile: { page: 0, tally: 0, workers: [], chunks: [] },
  };
  const share = Math.ceil(MISMATCH_DETAILS / poolSize());
  let resolve;
  const done = new Promise((r) => { resolve = r; });
  const part = (w) => `${run}/${w.index}`;
  const payloadFor = (w) => ({ run: part(w), name, file, records: true, mismatch_details: share });

  function fail(err) {
    if (!s.failed) s.failed = err;
    pump();
  }

  function open(w, survey) {
    const entry = { name: part(w), state: "opening", inFlight: 0, size: FIRST_CHUNK, chunks: 0 };
    const stats = { worker: w.index, asked: performance.now() - started, open: 0, games: 0, python: 0, last: 0 };
    entry.stats = stats;
    s.profile.workers.push(stats);
    s.parts.set(w, entry);
    w.holds++;
    return w.request("archive_open", survey ? { ...payloadFor(w), survey } : payloadFor(w))
      .then((answer) => {
        entry.state = "open";
        stats.open = performance.now() - started;
        stats.lazy = answer.lazy; // the File read a slice at a time (worker.mjs)
        return answer;
      }, (err) => {
        entry.state = "closed";
        w.holds--;
        throw err;
      });
  }

  function pump() {
    if (s.finished) return;
    if (!s.stopped && !s.failed) {
      const allowed = s.survey && s.survey.parallel && s.total >= SPREAD_FROM ? pool.usable() : [pool.first];
      for (const w of allowed) {
        const entry = s.parts.get(w);
        if (!entry && s.next < s.end) open(w, s.survey).then(pump, fail);
        while (entry && entry.state === "open" && entry.inFlight < DEPTH && s.next < s.end) chunk(w, entry);
      }
    }
    const working = [...s.parts.values()].some((p) => p.state === "opening" || p.inFlight);
    if (!working && (s.stopped || s.failed || s.next >= s.end)) finish();
  }

  // Near the end chunks shrink (to a share of what is left), so that the workers finish
  // together rather than one checking its last big chunk while the others wait.
  function chunk(w, entry) {
    const start = s.next;
    const open = [...s.parts.values()].filter((p) => p.state === "open").length;
    const share = Math.max(CHUNK_MIN, Math.ceil((s.end - start) / (open * DEPTH)));
    const limit = Math.max(1, Math.min(entry.size, share, s.end - start));
    s.next += limit;
    entry.inFlight++;
    w.request("archive_next", { run: entry.name, start, limit }).then((answer) => {
      entry.inFlight--;
      entry.chunks++;
      Object.assign(entry.stats, { games: entry.stats.games + answer.rows.length,
        python: entry.stats.python + answer.ms, last: performance.now() - started });
      if (s.profile.chunks.length < PROFILED_CHUNKS) {
        s.profile.chunks.push([w.index, start, answer.rows.length, Math.round(answer.ms), Math.round(entry.stats.last)]);
      }
      entry.size = Math.max(CHUNK_MIN, Math.min(CHUNK_MAX, Math.round(limit * CHUNK_MS / Math.max(answer.ms, 1))));
      const got = answer.rows.length;
      if (got < limit) s.end = Math.min(s.end, start + got); // the archive ended here
      else if (start + got >= s.end) s.end = start + got + 1; // its last chunk was full: look on
      s.received += got;
      s.total = Math.max(s.total, s.received);
      s.waiting.set(start, answer);
      pump(); // the next chunk first, then the page's work
      deliver();
    }, (err) => {
      entry.inFlight--;
      fail(err);
    });
  }

  // Chunks in the archive's order: rows to the page, audit records to the run's tally.
  function deliver() {
    const began = performance.now();
    while (s.waiting.has(s.delivered)) {
      const start = s.delivered;
      const answer = s.waiting.get(start);
      s.waiting.delete(start);
      s.delivered += answer.rows.length;
      if (answer.records.length) {
        const records = answer.records;
        // part: the first worker's own run of the File, which it keeps for the tally to
        // read a game with another copy again (worker.mjs: where the File is read lazily)
        s.fed = pool.first.request("tally_add", { run, start, records, part: part(pool.first), label: name, survey: s.survey });
        s.fed.then((answer) => { s.profile.tally += answer.ms || 0; }, () => {});
        s.fed.catch(fail);
      }
      onRows(answer);
      if (!answer.rows.length) break; // past the end
    }
    const workers = [...s.parts.values()].filter((p) => p.chunks).length;
    onProgress({ done: s.delivered, total: s.total, workers,
      rate: s.delivered / Math.max(1e-3, (performance.now() - started) / 1000) });
    s.profile.page += performance.now() - began;
  }

  async function finish() {
    s.finished = true;
    stopListening();
    const closing = [...s.parts].filter(([, p]) => p.state === "open").map(([w, p]) => {
      p.state = "closed";
      return w.request("archive_close", { run: p.name }).catch(() => {}).finally(() => {
        w.holds--;
        pool.trim();
      });
    });
    await Promise.all(closing);
    await s.fed.catch(() => {});
    const cancelled = s.stopped;
    if (cancelled || s.failed) await pool.first.request("archive_close", { run }).catch(() => {});
    const ended = performance.now();
    const memory = (await pool.memory().catch(() => [])).map((m) => m.wasm);
    resolve({ done: s.delivered, total: Math.max(s.total, s.delivered), cancelled, seconds: (ended - started) / 1000,
      ended, failed: s.failed, memory, profile: s.profile });
  }

  const stopListening = pool.listen(pump);
  open(pool.first, null).then((answer) => {
    s.survey = answer.survey;
    s.total = answer.total;
    s.end = answer.total || 1; // an empty zip: one look, which finds nothing
    onOpen(answer);
    if (s.survey.parallel && s.total >= SPREAD_FROM) pool.want(poolSize());
    pump();
  }, fail);
  if (file && file.size >= SPREAD_BYTES) pool.want(poolSize()); // after the first's open: pump sees it

  return {
    done,
    stop() {
      s.stopped = true;
      pump();
    },
  };
}
