// The page's Python workers: a pool sized from the computer's cores (one left for the
// page, at most POOL_CAP; a person may choose another number, kept in localStorage),
// started lazily. The first worker starts with the page and answers every request made
// with `request`, as a single worker did; the others start only when work spread over
// the pool needs them (a batch's logs, an archive's chunks), so one log never starts a
// second worker. Each worker loads the same hash-checked wheel (worker.mjs), from the
// service worker's cache after the first visit.

// A spread job (a file to verify) that runs longer than `jobMs` in its worker, counted
// from the moment the worker starts it, stops that worker: the job fails with
// "timed_out", a new worker takes the old one's place, and the old one's other jobs go
// back to the queue, so the files beside a hostile one still get their verdicts. A reply
// of more than `replyChars` characters is refused by the worker itself (worker.mjs), so
// it never reaches the page. A real log is checked in well under a second and its report
// is under 100 KB of JSON.

import { WorkerError, connect, startWorker } from "./rpc.mjs";

export const POOL_CAP = 8;
const STORAGE_KEY = "pywall.workers";
// Spread jobs sent to a worker at once: enough that it never waits for the page, whose
// redraw of a batch takes tens of milliseconds (with 2, a 50-log batch left the worker
// idle 160-300 ms in all, waiting for its next log while the table was drawn).
const JOB_DEPTH = 6;
// Tests may lower them (on this module's object) to reach the limits with small files.
export const limits = { jobMs: 10_000, replyChars: 4 * 1024 * 1024 };

export function cores() {
  return Math.max(1, Math.floor(Number(navigator.hardwareConcurrency)) || 1);
}

// The most workers a person may choose: one per core, up to the cap.
export function sizeLimit() {
  return Math.min(POOL_CAP, cores());
}

// Without a choice: one core left for the page.
export function automaticSize() {
  return Math.max(1, Math.min(POOL_CAP, cores() - 1));
}

// The number a person chose (null: automatic).
export function chosenSize() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch { /* storage may be off */ }
  const n = Number(stored);
  return stored != null && Number.isInteger(n) && n >= 1 ? Math.min(n, sizeLimit()) : null;
}

export function poolSize() {
  return chosenSize() ?? automaticSize();
}

export function chooseSize(n) {
  try {
    if (n == null) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, String(n));
  } catch { /* the choice lasts for this page only */ }
}

class PoolWorker {
  // onEvent(type, payload): its start-up events; onBusy(): a request went out or came back.
  constructor(index, onEvent, onBusy) {
    this.index = index;
    this.ready = false;
    this.failed = null;
    this.inFlight = 0; // requests sent and not answered
    this.jobs = 0; // of them, spread jobs
    this.holds = 0; // archive runs open in it (it keeps their File mounted)
    this.stopped = null; // the error its requests get once the pool has stopped it
    this.worker = startWorker(index);
    this.rpc = connect(this.worker, { onEvent });
    this.onBusy = onBusy;
  }

  request(type, payload, options) {
    if (this.stopped) return Promise.reject(this.stopped); // an archive run still holding it
    this.inFlight++;
    this.onBusy();
    const promise = this.rpc.request(type, payload, options);
    const settle = () => {
      this.inFlight--;
      this.onBusy();
    };
    promise.then(settle, settle);
    return promise;
  }
}

export class Pool {
  // onFirstEvent(type, payload): the first worker's start-up events (the status line);
  // onChange(): a worker started, became ready, failed or stopped.
  constructor({ onFirstEvent, onChange } = {}) {
    this.workers = [];
    this.queue = []; // spread jobs waiting for a worker
    this.listeners = new Set();
    this.onChange = onChange || (() => {});
    this.onFirstEvent = onFirstEvent || (() => {});
    this.lastWork = performance.now(); // when a request last went out or came back, or a worker became ready
    this.jobsMade = 0;
    this.start();
  }

  get first() {
    return this.workers[0];
  }

  // Workers that may be given work now. When Python could not start at all, the first
  // worker still takes work, to answer it with that error.
  usable() {
    const size = poolSize();
    const ok = this.workers.filter((w) => w.ready && !w.failed && w.index < size);
    return ok.length || !this.first.failed ? ok : [this.first];
  }

  // Start workers until there are n (at most the pool's size).
  want(n) {
    const target = Math.min(n, poolSize());
    while (this.workers.length < target) this.start();
  }

  // A new worker at `index` (the end of the pool, or in place of one stopped: then its
  // start-up is not the page's, and the status line is not told of it).
  // `page`: its start-up is the page's all the same (the first worker started again after
  // a failed start, `restartFirst`).
  start(index = this.workers.length, page = index === this.workers.length) {
    let w = null;
    const onEvent = (type, payload) => {
      if (type === "ready") this.lastWork = performance.now(); // before the page's ready hooks
      if (index === 0 && page) this.onFirstEvent(type, payload);
      if (type === "ready") w.ready = true;
      else if (type === "fatal") w.failed = payload;
      else return;
      this.changed();
    };
    w = new PoolWorker(index, onEvent, () => {
      this.lastWork = performance.now();
      this.onChange();
    });
    this.workers[index] = w;
    this.notify();
    return w;
  }

  // The first worker could not start: a new one in its place, whose start-up the status
  // line follows. Requests the old one held fail with "not_ready".
  restartFirst() {
    const old = this.first;
    old.stopped = new WorkerError("not_ready", "Python could not be loaded in this browser.");
    old.worker.terminate();
    this.start(0, true);
    old.rpc.failAll(old.stopped);
  }

  // A job ran past the time limit: stop its worker and start another in its place. The
  // job fails; the worker's other requests fail with "worker_restarted" (its other spread
  // jobs are sent again, see dispatch).
  stop(w, job) {
    if (this.workers[w.index] !== w) return;
    job.stalled = true;
    w.stopped = new WorkerError("worker_restarted",
      "the page stopped this Python worker (a file's check ran too long) and started another");
    w.worker.terminate();
    this.start(w.index);
    w.rpc.failAll(w.stopped);
  }

  // A job back in the queue, in its first place (jobs keep the order they came in).
  requeue(job) {
    const at = this.queue.findIndex((q) => q.seq > job.seq);
    this.queue.splice(at < 0 ? this.queue.length : at, 0, job);
    this.dispatch();
  }

  // Something changed: waiting jobs and archive runs may go on.
  changed() {
    this.dispatch();
    this.notify();
  }

  notify() {
    for (const listener of this.listeners) listener();
    this.onChange();
  }

  listen(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // One request to the first worker (every request that is not spread).
  request(type, payload, options) {
    return this.first.request(type, payload, options);
  }

  // One job of a batch: to whichever worker is free, in the order the jobs came. The
  // pool grows while jobs outnumber the workers started. options.onWorker(index): which
  // worker took it.
  spread(type, payload, options = {}) {
    return new Promise((resolve, reject) => {
      this.queue.push({ type, payload, options, resolve, reject, seq: ++this.jobsMade });
      this.dispatch();
    });
  }

  dispatch() {
    const inFlight = this.workers.reduce((n, w) => n + w.jobs, 0);
    if (this.queue.length + inFlight > this.workers.length) this.want(this.queue.length + inFlight);
    while (this.queue.length) {
      const free = this.usable().filter((w) => w.jobs < JOB_DEPTH);
      if (!free.length) return;
      const w = free.reduce((a, b) => (b.jobs < a.jobs ? b : a));
      const job = this.queue.shift();
      const { onWorker, ...options } = job.options;
      w.jobs++;
      if (onWorker) onWorker(w.index);
      // The worker says when it starts the job: from then on it has limits.jobMs.
      const onProgress = (p) => {
        if (p && p.stage === "started") job.timer = setTimeout(() => this.stop(w, job), limits.jobMs);
        else if (options.onProgress) options.onProgress(p);
      };
      const promise = w.request(job.type, job.payload, { ...options, onProgress });
      // Registered before the caller's handlers: the next job goes out first.
      const next = () => {
        clearTimeout(job.timer);
        w.jobs--;
        this.dispatch();
        this.trim();
      };
      promise.then(next, next);
      promise.then(job.resolve, (err) => this.failed(job, err));
    }
  }

  // A job's request failed: it timed out, or its worker was stopped for another's (sent
  // again), or it failed for its own reasons.
  failed(job, err) {
    if (job.stalled) {
      const seconds = Math.round(limits.jobMs / 100) / 10;
      job.reject(new WorkerError("timed_out", `checking this file took more than ${seconds} s: `
        + "it was stopped (a real log takes well under a second)"));
    } else if (err && err.code === "worker_restarted") {
      this.requeue(job);
    } else {
      job.reject(err);
    }
  }

  // Stop idle workers beyond the chosen size, from the last (the first one always stays;
  // a worker's index is its place in the pool).
  trim() {
    const size = poolSize();
    let trimmed = false;
    for (let w = this.workers.at(-1); w && w.index > 0 && w.index >= size && !w.inFlight && !w.holds;
      w = this.workers.at(-1)) {
      w.worker.terminate();
      this.workers.pop();
      trimmed = true;
    }
    if (trimmed) this.changed();
  }

  // How long the pool has had nothing to do, in ms (0 while it has work in hand).
  idleFor() {
    if (this.queue.length || this.workers.some((w) => w.inFlight > 0)) return 0;
    return performance.now() - this.lastWork;
  }

  // How the pool stands, for the status line and the tests' hooks.
  counts() {
    return { started: this.workers.length, ready: this.workers.filter((w) => w.ready && !w.failed).length,
      busy: this.workers.filter((w) => w.inFlight > 0).length };
  }

  // Each worker's memory (its WebAssembly heap, where Python lives), for the benchmarks.
  memory() {
    return Promise.all(this.workers.map((w) => (w.ready ? w.request("memory", {}) : { wasm: 0 })));
  }
}
