// What a verdict means, in plain words, under each game's verdict: what "verified"
// proves and what it cannot (folded), and, open, what a mismatch can mean and what
// to do about it. A Tenhou game whose id is known gets the link to its log file on
// tenhou.net (from Python's `link`: pywall/links.py owns that address).

import "./help-i18n.mjs";
import { t } from "./i18n.mjs";
import { el } from "./render.mjs";
import { request } from "./session.mjs";

export function verdictMeaning(report) {
  if (report.status === "verified") return verified();
  if (report.status === "mismatch") return mismatch(report);
  return null;
}

function verified() {
  return el("details", { class: "meaning", data: { meaning: "verified" } },
    el("summary", {}, t("meaning.verified.summary")),
    el("p", {}, t("meaning.verified.proves")),
    el("p", {}, t("meaning.verified.cannot")),
    el("p", {}, t("meaning.verified.source")));
}

function mismatch(report) {
  const unrelated = (report.findings || []).some((f) => f.code === "wall_unrelated");
  const fresh = el("p", { class: "meaning-fresh", hidden: true });
  const logId = report.game && report.game.platform === "tenhou" ? report.game.log_id : null;
  if (logId) {
    request("link", { text: logId }).then(({ link }) => {
      if (!link || !link.record_url) return;
      fresh.append(t("meaning.mismatch.fresh"), " ",
        el("a", { href: link.record_url, target: "_blank", rel: "noopener noreferrer" }, link.record_url));
      fresh.hidden = false;
    }, () => {});
  }
  return el("details", { class: "meaning", open: true, data: { meaning: "mismatch" } },
    el("summary", {}, t("meaning.mismatch.summary")),
    unrelated ? el("p", { class: "meaning-unrelated" }, el("strong", {}, t("meaning.mismatch.unrelated"))) : null,
    el("p", {}, t("meaning.mismatch.intro")),
    el("ul", {}, ["edited", "other", "platform"].map((k) => el("li", {}, t(`meaning.mismatch.${k}`)))),
    el("p", {}, t("meaning.mismatch.todo")),
    fresh);
}
