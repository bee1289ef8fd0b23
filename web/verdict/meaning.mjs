// What a verdict means, in plain words, under each game's verdict: what "verified"
// proves and what it cannot (folded), and, open, what a mismatch can mean and what
// to do about it. A Tenhou game whose id is known gets the link to its log file on
// tenhou.net (from Python's `link`: pywall/formats/links.py owns that address). A record that
// reveals its own wall (Mahjong Soul, Riichi City) has no seed to blame, and a Mahjong
// Soul room with test settings (its `testing_environment` limit) is said for what it is.
// request: the page's way to ask the worker (session.request), as picture.mjs takes it.

import "../words/help-i18n.mjs";
import "../words/reading-i18n.mjs";
import { t } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";

export function verdictMeaning(report, request) {
  const meaning = report.status === "verified" ? verified(report) : report.status === "mismatch" ? mismatch(report, request) : null;
  const limits = (report.game && report.game.limits) || [];
  if (!limits.includes("testing_environment")) return meaning;
  return el("div", { class: "meaning-room" }, roomNote(), meaning);
}

// A Mahjong Soul room with test settings: what it is, and what any verdict means there.
function roomNote() {
  return el("section", { class: "meaning room", data: { meaning: "room" } },
    el("h4", {}, t("meaning.room.heading")),
    el("p", {}, t("meaning.room.what")),
    el("p", {}, t("meaning.room.check")));
}

// Which words fit what was checked: Tenhou (the seed's wall), Mahjong Soul before
// 2023-05-23 (an MD5 of the undealt tiles: Python's `deal_outside_hash` limit) or after
// (SHA-256 of the whole wall and a salt), Riichi City (unsalted SHA-256 of the wall).
// A record whose rounds state no digest of their walls says so ("nohash"), and one whose
// digests cannot be checked (no salt) too ("unchecked"): neither claims a commitment.
export function verifiedCase(report) {
  const game = report.game || {};
  if (game.platform !== "majsoul" && game.platform !== "riichicity") return "tenhou";
  const digests = (report.rounds || []).flatMap((r) => r.hashes || []).filter((h) => h.covers !== "salt");
  if (!digests.length) return "nohash";
  if (digests.some((h) => h.match == null)) return "unchecked";
  if (game.platform === "riichicity") return "riichicity";
  return (game.limits || []).includes("deal_outside_hash") ? "majsoul_md5" : "majsoul_sha256";
}

function verified(report) {
  const which = verifiedCase(report);
  return el("details", { class: "meaning", data: { meaning: "verified", case: which } },
    el("summary", {}, t("meaning.verified.summary")),
    el("p", { data: { part: "proves" } }, t(`meaning.verified.proves.${which}`)),
    el("p", { data: { part: "cannot" } }, t(`meaning.verified.cannot.${which}`)),
    el("p", {}, t(which === "tenhou" ? "meaning.verified.source" : "meaning.verified.source.stated")));
}

const SEED_WORDS = { intro: "meaning.mismatch.intro", unrelated: "meaning.mismatch.unrelated",
  causes: ["meaning.mismatch.edited", "meaning.mismatch.other", "meaning.mismatch.platform"], todo: "meaning.mismatch.todo" };
const STATED_WORDS = { intro: "meaning.mismatch.intro.stated", unrelated: "meaning.mismatch.unrelated.stated",
  causes: ["meaning.mismatch.edited", "meaning.mismatch.wall", "meaning.mismatch.stated.platform"],
  todo: "meaning.mismatch.todo.stated" };

function mismatch(report, request) {
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
  // a record that reveals its wall (Mahjong Soul, Riichi City) has no seed: its own words
  const stated = Boolean(report.game && report.game.platform && report.game.platform !== "tenhou");
  const words = stated ? STATED_WORDS : SEED_WORDS;
  return el("details", { class: "meaning", open: true, data: { meaning: "mismatch", platform: stated ? "stated" : "seed" } },
    el("summary", {}, t("meaning.mismatch.summary")),
    unrelated ? el("p", { class: "meaning-unrelated" }, el("strong", {}, t(words.unrelated))) : null,
    el("p", {}, t(words.intro)),
    el("ul", {}, words.causes.map((k) => el("li", {}, t(k)))),
    el("p", {}, t(words.todo)),
    fresh);
}
