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

  worker.addEventListener("message", (event) => {
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
  });

  // Every request not yet answered fails with `err` (the worker stopped or was stopped).
  const failAll = (err) => {
    const entries = [...pending.values()];
    pending.clear();
    for (const entry of entries) entry.reject(err);
  };

  worker.addEventListener("error", (event) => {
    const err = new WorkerError("worker_failed", event.message || "the worker stopped");
    failAll(err);
    if (onEvent) onEvent("fatal", { code: "worker_failed", message: err.message });
  });

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

// Start the shared worker module next to this file (the pool's n-th worker: "pywall-n").
export function startWorker(index = 0) {
  reloadOnUpdate();
  const name = index ? `pywall-${index}` : "pywall";
  return new Worker(new URL("./worker.mjs", import.meta.url), { type: "module", name });
}
