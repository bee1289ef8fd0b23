// The tools around the verifier, one module each: the commitment box in a verified
// game's view (commitment.mjs), each round's starting hands (start-hands.mjs), the
// SEGA MJ and Mahjong Soul tools (sega.mjs, majsoul.mjs; #tool=sega, #tool=majsoul)
// and the starting-hand audit of a batch (audit.mjs). This module wires them in.
// DOM only; every string from a file or a person is added as text.

import "../words/panels-i18n.mjs";
import { t, translatePage } from "../words/i18n.mjs";
import { subscribe } from "../kit/store.mjs";
import { setRenderHooks } from "../verdict/render.mjs";
import { clear } from "../kit/dom.mjs";
import { redrawers, setRequest } from "../tools/panel-kit.mjs";
import { showTool } from "../tools/tool-section.mjs";
import { commitmentBox } from "../tools/commitment.mjs";
import { roundHands } from "../tools/start-hands.mjs";
import { segaPanel } from "../tools/sega.mjs";
import { majsoulPanel } from "../tools/majsoul.mjs";
import { auditControls } from "../audit/audit.mjs";
import { gameDrawsView } from "../audit/audit-draws.mjs";

function buildTools() {
  const host = document.getElementById("tool-panels");
  if (!host) return;
  clear(host).append(segaPanel(), majsoulPanel());
}

// options: {request: (type, payload) -> Promise, sources: () -> {reports, runs} for the audit,
// linked: () -> the players the batch's game links name by their seat (the audit's "you")}
export function initPanels(options) {
  subscribe(["language"], redrawPanels);
  setRequest(options.request);
  setRenderHooks({ report: (r) => [commitmentBox(r), gameDrawsView(r)], round: roundHands });
  buildTools();
  auditControls(options.sources || (() => ({ reports: [], runs: [] })), options.linked);
  translatePage();
  showTool(false);
  window.addEventListener("hashchange", () => showTool(true));
}

// After a language change: rebuild the tool forms' words and redraw the last answers.
export function redrawPanels() {
  relabel();
  for (const draw of redrawers) draw();
}

// Labels, headings and buttons of the tool forms and the audit, in the current language.
function relabel() {
  const set = (selector, text) => { const node = document.querySelector(selector); if (node) node.textContent = text; };
  set("#tool-sega-heading", t("sega.heading"));
  set("#tool-majsoul-heading", t("ms.heading"));
  for (const n of [1, 2, 3, 4]) set(`label[for=sega-seed-${n}]`, t("sega.seed", { n }));
  set("label[for=sega-uncertainty]", t("sega.uncertainty"));
  set("#tool-sega button[type=submit]", t("sega.show"));
  set("#tool-sega .hint", t("sega.hint"));
  set("#tool-sega .sega-where", t("sega.where"));
  set("#tool-sega .sega-proves", t("sega.proves"));
  set("#tool-sega .sega-cannot", t("sega.cannot"));
  set("#tool-majsoul .hint", t("ms.hint"));
  set("label[for=ms-file]", t("ms.file"));
  set("#tool-majsoul h3", t("ms.or"));
  set("label[for=ms-paishan]", t("ms.paishan"));
  set("label[for=ms-salt]", t("ms.salt"));
  set("label[for=ms-hash]", t("ms.hash"));
  set("#tool-majsoul button[type=submit]", t("ms.check"));
  for (const a of document.querySelectorAll("a.close-tool")) a.textContent = t("nav.close");
  set("#audit-heading", t("audit.heading"));
  set("#audit-go", t("audit.button"));
}
