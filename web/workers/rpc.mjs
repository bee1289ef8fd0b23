// A tiny request/response layer over a worker: every request carries an id;
// the worker answers with `progress` (any number), then one `result` or `error`.

export class WorkerError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export function connect(worker, { onEvent } = {}) {
  const pending = new Map();
  let nextId = 1;

  const onMessage = (event) => {
    const { id, type, payload } = event.data || {};
    const entry = id == null ? undefined : pending.get(id);
    if (!entry) {
      if (onEvent) onEvent(type, payload); // unsolicited: start-up progress, ready, fatal
      return;
    }
    if (type === "progress") {
      if (entry.onProgress) entry.onProgress(payload);
      return;
    }
    pending.delete(id);
    if (type === "result") entry.resolve(payload);
    else entry.reject(new WorkerError(payload?.code || "error", payload?.message || "failed"));
  };

  // Every request not yet answered fails with `err` (the worker stopped or was stopped).
  const failAll = (err) => {
    const entries = [...pending.values()];
    pending.clear();
    for (const entry of entries) entry.reject(err);
  };

  const onError = (event) => {
    const err = new WorkerError("worker_failed", event.message || "the worker stopped");
    failAll(err);
    if (onEvent) onEvent("fatal", { code: "worker_failed", message: err.message });
  };

  worker.addEventListener("message", onMessage);
  worker.addEventListener("error", onError);
  for (const event of takeHeld(worker)) (event.type === "error" ? onError : onMessage)(event);

  return {
    failAll,
    request(type, payload, { onProgress, transfer = [] } = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, onProgress });
        worker.postMessage({ id, type, payload }, transfer);
      });
    },
  };
}

// One version of the site in an open page: a new version's service worker takes over open
// pages at once and deletes the old version's cache (sw.js), so a page that was under an
// older one reloads then, rather than start its next worker from the new worker.mjs beside
// its old modules. A first visit's service worker taking control is no update (the page
// was under none). Set up by the first worker a page starts.
let watching = false;
function reloadOnUpdate() {
  if (watching || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  watching = true;
  let controlled = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (controlled) location.reload();
    controlled = true;
  });
}

function newWorker(index) {
  reloadOnUpdate();
  const name = index ? `pywall-${index}` : "pywall";
  return new Worker(new URL("./worker.mjs", import.meta.url), { type: "module", name });
}

// A page's first worker, started by early.mjs as soon as the page's HTML is read, before
// the page's own modules are fetched and run (that took 0.3-0.4 s of a cold start, all
// of it before the worker began to fetch Python). The events it sends until the page
// connects to it are held, and connect() hands them on in order.
let early = null;
let firstAsked = false; // the page has asked for its first worker: too late to start one early
const held = new WeakMap(); // worker -> {events, keep}

export function startEarly() {
  if (early || firstAsked) return;
  early = newWorker(0);
  const events = [];
  const keep = (event) => events.push(event);
  early.addEventListener("message", keep);
  early.addEventListener("error", keep);
  held.set(early, { events, keep });
}

function takeHeld(worker) {
  const before = held.get(worker);
  if (!before) return [];
  held.delete(worker);
  worker.removeEventListener("message", before.keep);
  worker.removeEventListener("error", before.keep);
  return before.events;
}

// Start the shared worker module next to this file (the pool's n-th worker: "pywall-n");
// the first one is the worker early.mjs started, when it did and no one has taken it yet.
export function startWorker(index = 0) {
  if (index === 0) firstAsked = true;
  if (index === 0 && early) {
    const worker = early;
    early = null;
    return worker;
  }
  return newWorker(index);
}
