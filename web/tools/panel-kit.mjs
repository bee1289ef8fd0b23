// What every tool panel shares: the request function (from app.js), a failure
// message, unique ids, and the views redrawn after a language change.

import { t } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";

let send = null; // (type, payload) -> Promise, from app.js
let uid = 0;
export const nextId = (prefix) => `${prefix}-${++uid}`;
export const redrawers = new Set(); // views that re-render their last answer on a language change

export function setRequest(request) {
  send = request;
}

// One request to Python (pywall.page.api's request types): its result, or a rejection.
export function ask(type, payload) {
  return send(type, payload);
}

export function failure(err) {
  return el("p", { class: "error-text", role: "alert", data: { result: "error" } },
    "⚠ ", t("call.failed", { message: err.message || String(err) }));
}

export function working() {
  return el("p", { class: "hint" }, t("call.working"));
}
