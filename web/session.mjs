// The page's worker and its start-up status: `request` sends one request to Python
// (requests made before Python is ready wait in the worker, and are counted on the
// status line); `showStatus` draws #status[data-state].

import { connect, startWorker } from "./rpc.mjs";
import { t } from "./i18n.mjs";

const $ = (id) => document.getElementById(id);

const state = {
  ready: false,
  info: null,
  stage: "status.loading",
  error: null,
  waiting: 0, // requests sent before Python was ready
};

const readyHooks = [];
let rpc = null;

export function startSession({ onReady } = {}) {
  if (onReady) readyHooks.push(onReady);
  rpc = connect(startWorker(), { onEvent: workerEvent });
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
  }
  showStatus();
}

export function showStatus() {
  const status = $("status");
  const name = state.error ? "error" : state.ready ? "ready" : "loading";
  status.dataset.state = name;
  $("status-text").textContent = name === "ready" ? t("status.ready")
    : name === "error" ? t("status.error", { message: state.error }) : t(state.stage);
  $("about").textContent = state.info ? t("about.versions", state.info) : "";
  $("load-progress").hidden = name !== "loading";
  $("queue-text").textContent = !state.ready && state.waiting ? t("status.queued", { n: state.waiting }) : "";
}

// One request to Python: a promise of its result (rejected with {code, message}).
export function request(type, payload, options) {
  const early = !state.ready;
  if (early) state.waiting++;
  showStatus();
  const settle = () => {
    if (early) state.waiting--;
    showStatus();
  };
  const promise = rpc.request(type, payload, options);
  promise.then(settle, settle);
  return promise;
}
