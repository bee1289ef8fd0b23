// The hand calculator page: a hand in mpsz -> shanten per form and effective tiles, or
// for 14 tiles the 牌理 table (each discard that keeps the best shanten, the tiles it
// then accepts and how many remain). Shareable as calc.html#q=HAND(&v=VISIBLE)(&lang=ja).

import { connect, startWorker } from "../workers/rpc.mjs";
import { initLanguageSelect, startFailure, t, translatePage, withLanguage } from "../words/i18n.mjs";
import "../words/panels-i18n.mjs";
import "../words/help-i18n.mjs";
import { clear, el } from "../kit/dom.mjs";
import { tileEl } from "../verdict/tile.mjs";
import { efficiencyView, shantenText } from "../verdict/hand-view.mjs";

const $ = (id) => document.getElementById(id);
let info = null;
let failed = null;
let last = null;
const rpc = connect(startWorker(), {
  onEvent(type, payload) {
    if (type === "ready") info = payload;
    else if (type === "fatal") failed = payload; // worded in showStatus()
    showStatus();
  },
});

function showStatus() {
  const state = failed ? "error" : info ? "ready" : "loading";
  $("status").dataset.state = state;
  $("status-text").textContent = state === "ready" ? t("status.ready")
    : state === "error" ? t("status.error", { message: startFailure(failed) }) : t("status.loading");
  $("about").textContent = info ? t("about.versions", info) : "";
}

function fromHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return { hand: params.get("q") || "", visible: params.get("v") || "" };
}

function linkFor(hand, visible) {
  const params = new URLSearchParams({ q: hand });
  if (visible) params.set("v", visible);
  return withLanguage(`#${params.toString()}`);
}

function handTiles(data) {
  const red = new Set(data.red);
  const used = new Set();
  return data.kinds.map((kind) => {
    const isRed = red.has(kind) && !used.has(kind);
    if (isRed) used.add(kind);
    const id = isRed ? { 4: 16, 13: 52, 22: 88 }[kind] : kind * 4 + (kind % 9 === 4 && kind < 27 ? 1 : 0);
    return tileEl(id, { red: true });
  });
}

function draw() {
  const out = clear($("calc-out"));
  if (!last) return;
  const s = last.shanten;
  const forms = s.chiitoi == null ? t("shanten.formsShort", s) : t("shanten.forms", s);
  out.append(el("div", { class: "calc-result", data: { shanten: String(s.minimum), tiles: String(last.tiles) } },
    el("div", { class: "tiles calc-hand" }, handTiles(last)),
    el("p", { class: "calc-shanten" }, el("b", {}, shantenText(s.minimum)), ` (${forms})`),
    last.discards ? el("h3", {}, t("calc.table")) : null,
    efficiencyView(last)));
}

async function calculate(hand, visible, push) {
  $("calc-error").textContent = "";
  const fragment = linkFor(hand.trim(), visible.trim());
  if (push) history.replaceState(null, "", fragment);
  $("calc-url").value = location.href.split("#")[0] + fragment;
  if (!hand.trim()) {
    last = null;
    draw();
    return;
  }
  $("calc-out").textContent = t("call.working");
  try {
    last = await rpc.request("shanten", { hand, visible });
  } catch (err) {
    last = null;
    $("calc-error").textContent = t("call.failed", { message: err.message });
  }
  draw();
}

function initLanguage() {
  initLanguageSelect($("lang"), () => {
    translatePage();
    document.title = t("calc.title");
    showStatus();
    draw();
  });
  document.title = t("calc.title");
}

function load() {
  const { hand, visible } = fromHash();
  $("calc-hand").value = hand;
  $("calc-visible").value = visible;
  calculate(hand, visible, false);
}

initLanguage();
showStatus();
$("calc-form").addEventListener("submit", (e) => {
  e.preventDefault();
  calculate($("calc-hand").value, $("calc-visible").value, true);
});
$("calc-url").addEventListener("focus", (e) => e.target.select());
window.addEventListener("hashchange", load);
load();
