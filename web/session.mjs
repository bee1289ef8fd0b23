// The page's Python workers (pool.mjs) and their start-up status: `request` sends one
// request to the first worker (requests made before Python is ready wait in the
// worker, and are counted on the status line), `spread` one job of a batch to any
// worker; `showStatus` draws #status[data-state] (and data-workers: how many workers
// are ready, data-busy: how many have work in hand).

import { Pool } from "./pool.mjs";
import { onLanguage, t } from "./i18n.mjs";

const $ = (id) => document.getElementById(id);

const state = {
  ready: false,
  info: null,
  stage: "status.loading",
  error: null,
  errorCode: null, // the worker's code for it: old_browser is worded here
  waiting: 0, // requests sent before Python was ready
};

const readyHooks = [];
export let pool = null;

export function startSession({ onReady } = {}) {
  onLanguage(showStatus);
  if (onReady) readyHooks.push(onReady);
  pool = new Pool({ onFirstEvent: workerEvent, onChange: scheduleStatus });
}

function workerEvent(type, payload) {
  if (type === "progress") {
    state.stage = `status.${payload.stage}`;
    $("load-progress").value = payload.fraction;
  } else if (type === "ready") {
    state.ready = true;
    state.info = payload;
    performance.mark("pywall:ready", { detail: payload }); // read by benchmarks/bench_web.py
    $("load-progress").value = 1;
    for (const hook of readyHooks) hook(payload);
  } else if (type === "fatal") {
    state.error = payload.message;
    state.errorCode = payload.code;
  }
  showStatus();
}

let statusQueued = false;
function scheduleStatus() {
  if (statusQueued) return;
  statusQueued = true;
  queueMicrotask(() => {
    statusQueued = false;
    showStatus();
  });
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
  const name = state.error ? "error" : state.ready ? "ready" : "loading";
  const counts = pool ? pool.counts() : { started: 0, ready: 0, busy: 0 };
  put(status, "state", name);
  put(status, "workers", String(counts.ready));
  put(status, "busy", String(counts.busy));
  const workers = counts.ready > 1 ? ` · ${t("pool.workers", { n: counts.ready })}` : "";
  put($("status-text"), "text", name === "ready" ? t("status.ready") + workers
    : name === "error" ? t("status.error", { message: state.errorCode === "old_browser" ? t("status.old_browser")
      : state.error }) : t(state.stage));
  put($("about"), "text", state.info ? t("about.versions", state.info) : "");
  if ($("load-progress").hidden !== (name !== "loading")) $("load-progress").hidden = name !== "loading";
  put($("queue-text"), "text", !state.ready && state.waiting ? t("status.queued", { n: state.waiting }) : "");
}

// Count a request made before Python was ready, until it is answered.
function counted(promise) {
  if (state.ready) return promise;
  state.waiting++;
  showStatus();
  const settle = () => {
    state.waiting--;
    showStatus();
  };
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
