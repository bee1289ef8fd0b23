// Game links and log ids a person pastes (or that the bookmarklet brings, handoff.mjs).
// Python's `link` (pywall/formats/links.py) says which game a text names, with a hidden Tenhou
// id revealed and where the game's record is. The page never fetches anything itself:
// it says where the record is and how to bring it here. The seat a Tenhou link was made
// for (its tw) is remembered, and that player is marked "you" in the game's results.
// Each round of a checked Tenhou game links to its wall (the seed view's #tenhou=
// fragment, to share or embed) and, when the game's id is known, to Tenhou's viewer.

import "../words/help-i18n.mjs";
import "../words/records-i18n.mjs";
import { t, withLanguage } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";
import { fragmentFor } from "../kit/fragment.mjs";
import { request } from "../workers/session.mjs";
import { showAnswer } from "./answer.mjs";

const yours = new Map(); // Tenhou game id -> the seat of its link's tw, for links given in this visit
let addFiles = null; // (files, link) -> void, from files.mjs

export function initLinks(options) {
  addFiles = options.addFiles;
}

// The game a text names ({platform, game_id, seat, obfuscated, record_url, viewer_url}), or null.
export async function linkOf(text) {
  const { link } = await request("link", { text });
  return link;
}

export function remember(link) {
  if (link && link.platform === "tenhou" && link.seat != null) yours.set(link.game_id, link.seat);
}

// The seat to mark "you" in a report: from the link a file was chosen for (unless the
// file names another game), else from a link given for the game the report names.
export function yourSeat(report, link = null) {
  const id = report && report.game ? report.game.log_id : null;
  if (link && link.platform === "tenhou" && (!id || id === link.game_id)) return link.seat;
  return id && yours.has(id) ? yours.get(id) : null;
}

// The link shown under the paste box (answer.mjs), or none (null).
export function showLink(link) {
  remember(link);
  showAnswer(link ? (box) => box.append(link.platform === "tenhou" ? tenhouView(link) : majsoulView(link)) : null);
}

const outLink = (href) => el("a", { href, target: "_blank", rel: "noopener noreferrer" }, href);

// A phone may save the log under any name (or none): the chooser lists every file, and
// Python tells what the file is. On a phone the log is downloaded from its link (no
// Ctrl+S, no drop) and chosen here; both buttons are labels of the same chooser.
function tenhouView(link) {
  const chooser = el("input", { id: "link-file", type: "file",
    on: { change: (e) => { addFiles(e.target.files, link); e.target.value = ""; } } });
  const chooseButton = () => el("label", { for: "link-file", class: "button" }, t("link.choose"));
  return el("section", { class: "link-result", "aria-labelledby": "link-heading",
    data: { platform: "tenhou", game: link.game_id } },
  el("h3", { id: "link-heading" }, t("link.tenhou.heading", { id: link.game_id })),
  link.obfuscated ? el("p", { class: "link-hidden" }, t("link.hidden", { shown: link.obfuscated, id: link.game_id })) : null,
  link.seat != null ? el("p", { class: "link-you" }, t("link.you", { n: link.seat + 1, tw: link.seat })) : null,
  el("p", { class: "link-never" }, t("link.never")),
  el("p", {}, t("link.steps")),
  el("p", { class: "log-url" }, t("link.step1"), " ", outLink(link.record_url)),
  el("p", {}, t("link.computer")),
  el("ol", { class: "link-computer" },
    el("li", {}, t("link.step2")),
    el("li", {}, t("link.step3"), " ", el("span", { class: "choose" }, chooseButton(), chooser))),
  el("p", {}, t("link.phone")),
  el("ol", { class: "link-phone" },
    el("li", {}, t("link.phone1")),
    el("li", {}, t("link.phone2"), " ", el("span", { class: "choose" }, chooseButton()))),
  el("p", { class: "hint" }, t("link.bookmarklet")));
}

function majsoulView(link) {
  return el("section", { class: "link-result", "aria-labelledby": "link-heading",
    data: { platform: "majsoul", game: link.game_id } },
  el("h3", { id: "link-heading" }, t("link.majsoul.heading", { id: link.game_id })),
  el("p", {}, t("records.majsoul.what")),
  el("p", {}, t("records.majsoul.not")),
  el("p", {}, el("button", { type: "button", class: "link records-link", on: { click: openGuide } }, t("link.majsoul.guide")),
    " · ", el("a", { href: "#tool=majsoul" }, t("link.majsoul.tool"))));
}

// The records guide (records.mjs), unfolded and brought into view.
function openGuide() {
  const guide = document.getElementById("records-guide");
  if (!guide) return;
  guide.open = true;
  guide.scrollIntoView({ block: "start" });
}

// Under a checked round's wall: "link to this wall" (the game's seed, the round, the
// player count: what index.html#tenhou= and embed.html show) and, for a game whose
// Tenhou id is known, the round in Tenhou's viewer (its address from Python's `link`).
export function roundLinks(round, game, you = null) {
  if (!game || game.platform !== "tenhou" || !game.seed) return null;
  const fragment = withLanguage(fragmentFor(game.seed, round.index + 1, game.player_count));
  const box = el("p", { class: "round-links" },
    el("a", { class: "wall-link", href: location.href.split("#")[0] + fragment, target: "_blank", rel: "noopener" },
      t("seed.link")));
  if (game.log_id) {
    const at = { text: game.log_id, round: round.index, ...(you != null ? { seat: you } : {}) };
    request("link", at).then(({ link }) => {
      if (!link || !link.viewer_url) return;
      box.append(" · ", el("a", { class: "viewer-link", href: link.viewer_url, target: "_blank",
        rel: "noopener noreferrer" }, t("round.viewer")));
    }, () => {});
  }
  return box;
}
