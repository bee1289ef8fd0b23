// The page's Python workers (pool.mjs) and their start-up status: `request` sends one
// request to the first worker (requests made before Python is ready wait in the
// worker, and are counted on the status line), `spread` one job of a batch to any
// worker; `showStatus` draws #status[data-state] (and data-workers: how many workers
// are ready, data-busy: how many have work in hand).

import { Pool } from "./pool.mjs";
import { startFailure, t } from "../words/i18n.mjs";
import { get, subscribe, update } from "../kit/store.mjs";

const $ = (id) => document.getElementById(id);

const readyHooks = [];
export let pool = null;

// The status line is the store's `status` (Python's start-up), `pool` (the workers'
// counts) and `language`, drawn by subscription: the pool reports every request, and
// the store draws the line once for all that changed in a task.
export function startSession({ onReady } = {}) {
  subscribe(["status", "pool", "language"], showStatus);
  if (onReady) readyHooks.push(onReady);
  pool = new Pool({ onFirstEvent: workerEvent, onChange: countWorkers });
  countWorkers();
}

function countWorkers() {
  if (pool) update("pool", pool.counts());
}

function workerEvent(type, payload) {
  if (type === "progress") {
    update("status", { stage: `status.${payload.stage}`, fraction: payload.fraction });
  } else if (type === "ready") {
    update("status", { ready: true, info: payload, fraction: 1 });
    performance.mark("pywall:ready", { detail: payload }); // read by benchmarks/bench_web.py
    for (const hook of readyHooks) hook(payload);
  } else if (type === "warmed") {
    performance.mark("pywall:warmed", { detail: payload }); // the warm-up after ready (worker.mjs)
  } else if (type === "fatal") {
    if (!retried && payload.code !== "old_browser") {
      retried = true;
      update("status", { stage: "status.retry", fraction: 0.05 });
      forgetWorkerFiles().finally(() => pool.restartFirst());
      return;
    }
    update("status", { error: payload.message, errorCode: payload.code, errorFile: payload.file });
  }
}

// A failed start is tried once more, from the network: what it used is deleted from the
// caches first (its modules, Pyodide's JavaScript and the lock; not the packed
// runtime files, which the worker checks by their hash each time: runtime-files.mjs).
let retried = false;
const PACKED_NAME = /\.[0-9a-f]{16}(\.gz)?$/;
async function forgetWorkerFiles() {
  try {
    for (const key of await caches.keys()) {
      if (!key.startsWith("pywall-")) continue;
      const cache = await caches.open(key);
      for (const request of await cache.keys()) {
        const path = new URL(request.url).pathname;
        if (/\/(pyodide|workers)\//.test(path) && !PACKED_NAME.test(path)) await cache.delete(request);
      }
    }
  } catch (err) {
    console.warn("pywall: the caches could not be cleared", err); // none here (a private window)
  }
}

// The words of a failed start: the reason in the reader's language where the page knows it.
const failure = (state) => startFailure({ code: state.errorCode, file: state.errorFile, message: state.error }, true);

// Only what changed is written: the pool reports every request, and a page that
// rewrote its status line at each would lay itself out again and again.
function put(node, key, value) {
  if (key === "text" ? node.textContent !== value : node.dataset[key] !== value) {
    if (key === "text") node.textContent = value;
    else node.dataset[key] = value;
  }
}

export function showStatus() {
  const status = $("status");
  const state = get("status");
  const name = state.error ? "error" : state.ready ? "ready" : "loading";
  const counts = get("pool");
  put(status, "state", name);
  put(status, "workers", String(counts.ready));
  put(status, "busy", String(counts.busy));
  const workers = counts.ready > 1 ? ` · ${t("pool.workers", { n: counts.ready })}` : "";
  put($("status-text"), "text", name === "ready" ? t("status.ready") + workers
    : name === "error" ? t("status.error", { message: failure(state) }) : t(state.stage));
  put($("about"), "text", state.info ? t("about.versions", state.info) : "");
  if ($("load-progress").value !== state.fraction) $("load-progress").value = state.fraction;
  if ($("load-progress").hidden !== (name !== "loading")) $("load-progress").hidden = name !== "loading";
  put($("queue-text"), "text", !state.ready && state.waiting ? t("status.queued", { n: state.waiting }) : "");
}

// Count a request made before Python was ready, until it is answered.
function counted(promise) {
  if (get("status").ready) return promise;
  update("status", { waiting: get("status").waiting + 1 });
  const settle = () => update("status", { waiting: get("status").waiting - 1 });
  promise.then(settle, settle);
  return promise;
}

// One request to Python: a promise of its result (rejected with {code, message}).
export function request(type, payload, options) {
  return counted(pool.request(type, payload, options));
}

// One job of a batch, on whichever worker is free.
export function spread(type, payload, options) {
  return counted(pool.spread(type, payload, options));
}
