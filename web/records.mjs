// "How to get a game record to check", under the file chooser: for each platform, where
// its players get a record this page can check, which files carry the wall and its
// hashes and which do not (docs/records.md), and for Tenhou a route that works on a
// phone (paste the link, download the log file, choose it). DOM only; words in
// records-i18n.mjs.

import "./records-i18n.mjs";
import { t } from "./i18n.mjs";
import { subscribe } from "./store.mjs";
import { clear, el } from "./render.mjs";

const buttons = () => ({ verify: t("paste.verify"), choose: t("link.choose") });

function platform(name, ...body) {
  return el("section", { class: "records-platform", data: { platform: name } },
    el("h3", {}, t(`records.${name}`)), body);
}

function guide() {
  const words = buttons();
  const p = (key, cls = null) => el("p", { class: cls }, t(key, words));
  return [
    el("summary", {}, t("records.summary")),
    el("p", { class: "hint" }, t("records.intro")),
    platform("tenhou", p("records.tenhou.what"), p("records.tenhou.computer"),
      el("p", {}, t("records.tenhou.phone")),
      el("ol", { class: "records-phone" }, ["phone1", "phone2", "phone3"].map((k) => el("li", {}, t(`records.tenhou.${k}`, words)))),
      p("records.tenhou.not", "records-not")),
    platform("majsoul", p("records.majsoul.what"), p("records.majsoul.carries"), p("records.majsoul.partial"),
      p("records.majsoul.not", "records-not")),
    platform("riichicity", p("records.riichicity.what"), p("records.riichicity.not", "records-not")),
    platform("sega", p("records.sega.what"),
      el("p", {}, el("a", { href: "#tool=sega" }, t("nav.sega")))),
  ];
}

// The guide goes right under the chooser and its hint, folded (links.mjs unfolds it).
export function initRecords() {
  subscribe(["language"], redrawRecords);
  const hint = document.getElementById("files-hint");
  if (!hint || document.getElementById("records-guide")) return;
  const box = el("details", { id: "records-guide", class: "records" }, guide());
  hint.closest(".choose").after(box);
}

export function redrawRecords() {
  const box = document.getElementById("records-guide");
  if (box) clear(box).append(...guide());
}
