// "How to get a game record to check", under the file chooser: for each platform, where
// its players get a record this page can check, which files carry the wall and its
// hashes and which do not (docs/records.md), and for Tenhou a route that works on a
// phone (paste the link, download the log file, choose it). DOM only; words in
// records-i18n.mjs.

import "../words/records-i18n.mjs";
import { t } from "../words/i18n.mjs";
import { subscribe } from "../kit/store.mjs";
import { clear, el } from "../kit/dom.mjs";

const buttons = () => ({ verify: t("paste.verify"), choose: t("link.choose") });

function platform(name, ...body) {
  return el("section", { class: "records-platform", data: { platform: name } },
    el("h3", {}, t(`records.${name}`)), body);
}

// The repositories the guides name, as links (docs/records.md names them).
const REPOSITORIES = {
  majsoul: "https://github.com/Fat-pig-Cui/misc-code",
  riichicity: "https://github.com/0num4/paifu-playground",
};

// Numbered steps; a step's {repo} is its platform's repository as a link.
function steps(name, keys, words) {
  return el("ol", { class: "records-steps", data: { steps: name } }, keys.map((k) => {
    const [before, after] = t(`records.${name}.${k}`, { ...words, repo: "\u0000" }).split("\u0000");
    if (after === undefined) return el("li", {}, before);
    const href = REPOSITORIES[name];
    return el("li", {}, before, el("a", { href, rel: "noopener noreferrer", target: "_blank" }, href.replace("https://", "")), after);
  }));
}

// What the saved file looks like: its first characters.
const looks = (name) => el("p", { class: "records-looks" }, t("records.looks"), " ", el("code", {}, t(`records.${name}.looks`)));
const desktopOnly = () => el("p", { class: "desktop-only" }, el("strong", {}, t("records.desktopOnly")));

function guide() {
  const words = buttons();
  const p = (key, cls = null) => el("p", { class: cls }, t(key, words));
  return [
    el("summary", {}, t("records.summary")),
    el("p", { class: "hint" }, t("records.intro")),
    platform("tenhou", p("records.tenhou.what"),
      el("p", {}, t("link.computer")), steps("tenhou", ["step1", "step2", "step3"], words),
      el("p", {}, t("records.tenhou.phone")),
      el("ol", { class: "records-phone" }, ["phone1", "phone2", "phone3"].map((k) => el("li", {}, t(`records.tenhou.${k}`, words)))),
      looks("tenhou"), p("records.tenhou.not", "records-not")),
    platform("majsoul", p("records.majsoul.what"), desktopOnly(),
      steps("majsoul", ["step1", "step2", "step3"], words), looks("majsoul"),
      p("records.majsoul.carries"), p("records.majsoul.partial"), p("records.majsoul.not", "records-not")),
    platform("riichicity", p("records.riichicity.what"),
      steps("riichicity", ["step1", "step2", "step3"], words), looks("riichicity"),
      p("records.riichicity.not", "records-not")),
    platform("sega", p("records.sega.what"),
      steps("sega", ["step1", "step2", "step3"], words),
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
