// The page's Python workers (pool.mjs) and their start-up status: `request` sends one
// request to the first worker (requests made before Python is ready wait in the
// worker, and are counted on the status line), `spread` one job of a batch to any
// worker; `showStatus` draws #status[data-state] (and data-workers: how many workers
// are ready, data-busy: how many have work in hand).

import { Pool } from "./pool.mjs";
import { t } from "../words/i18n.mjs";
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
  } else if (type === "fatal") {
    update("status", { error: payload.message, errorCode: payload.code });
  }
}

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
    : name === "error" ? t("status.error", { message: state.errorCode === "old_browser" ? t("status.old_browser")
      : state.error }) : t(state.stage));
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
