// A report's findings as a list, each said in the page's language from its code and data
// (finding-words.mjs): where a tile of the record differs from the wall, as a player would
// say it (round, player, turn, the tile in the record and in the wall). Python's English
// message is shown only for a code the page does not know (and kept as the item's title on an English page). A stated wall's per-round digest results are not listed again when
// the report shows them under its wall commitments (stated-walls.mjs).

import "../words/report-i18n.mjs";
import { windOf } from "./finding-words.mjs";
import { hasWords, language, number, t, roundLabel } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";
import { redFivesOn, tileText } from "./tile.mjs";

// What a finding is about comes with it from Python (pywall.core.findings: `category`, and
// `where` for a tile, `outcome` for a digest); nothing here copies Python's tables.
const MAX_FINDINGS = 60;
const WHERE = new Set(["deal", "draw", "replacement", "dora", "ura"]);
// Digest results shown round by round under the wall commitments (stated-walls.mjs).
const shownWithDigests = (f) => f.category === "digest" && (f.outcome === "match" || f.outcome === "note");

// A player as the page names them everywhere: name and seat wind in that round.
function playerText(report, seat, round) {
  const game = report.game || {};
  const name = game.players ? game.players[seat] : "";
  const wind = t(`wind.${windOf(seat, round ? round.dealer : 0, game.player_count || 4)}`);
  return name ? t("where.player", { name, wind }) : t("where.seat", { wind });
}

const hashOutcome = (f) => (f.category === "digest" && (f.outcome === "match" || f.outcome === "mismatch")
  ? f.outcome : null);
// Codes worded from their data below; any other code with words ("code.<code>") is said
// with its data's numbers filled in.
const WORDED_FROM_DATA = new Set(["dora_count_mismatch", "dice_mismatch", "live_wall_overrun",
  "incomplete_log", "salt_missing", "wall_copy_mismatch"]);
const num = (n) => (Number.isFinite(n) ? number(n) : n);
// The file could not be analysed (Python's category "input", or a request the page's worker
// could not answer: batch.failedReport): Python's words stay, folded, under the page's.
const technical = (f) => f.category === "input";

// An older game's era (in the dates real logs of its format carry), and the kinds of its
// tiles no real record of that era has shown.
function legacyText(d) {
  const unseen = d.unseen.map((k) => t(`kind.${k}`)).join(language() === "en" ? ", " : "、");
  const era = t(`era.${d.era}`);
  return unseen ? t("code.legacy_seed.partial", { era, unseen }) : t("code.legacy_seed.seen", { era });
}

const roundOf = (report, f) => (report.rounds || []).find((r) => r.index === f.round);

// The words of a finding other than a located tile's, or null for a code not known here.
function codeText(f, report) {
  const d = f.data || {};
  let text = null;
  if (hashOutcome(f)) text = t(`code.hash.${hashOutcome(f)}`, { name: d.seat == null ? d.name ?? ""
    : `${d.name} (${t("hash.seatStart", { n: d.seat + 1 })})` });
  else if (f.code === "dora_count_mismatch") {
    text = d.listed != null ? t("code.dora_count_mismatch", d) : t("code.dora_count_mismatch.beyond", d);
  } else if (f.code === "dice_mismatch" && Array.isArray(d.log) && Array.isArray(d.wall)) {
    text = t("code.dice_mismatch", { log: d.log.join("+"), wall: d.wall.join("+") });
  } else if (f.code === "live_wall_overrun" && Number.isInteger(d.seat)) {
    text = t("code.live_wall_overrun", { player: playerText(report, d.seat, roundOf(report, f)) });
  } else if (f.code === "incomplete_log") text = t("code.incomplete_log", { rounds: num((report.rounds || []).length) });
  else if (f.code === "salt_missing") text = t("code.salt_missing", { names: (d.names || []).join(", ") });
  else if (f.code === "wall_copy_mismatch") text = t("code.wall_copy_mismatch", { count: num(d.differences ?? 1) });
  else if (f.code === "legacy_seed" && d.era && Array.isArray(d.unseen)) text = legacyText(d);
  else if (!WORDED_FROM_DATA.has(f.code) && hasWords(`code.${f.code}`)) {
    // a record that reveals its wall (Mahjong Soul, Riichi City) has no seed to blame
    const key = f.code === "wall_unrelated" && d.stated ? "code.wall_unrelated.stated" : `code.${f.code}`;
    text = t(key, Object.fromEntries(Object.entries(d).map(([k, v]) => [k, num(v)])));
  }
  if (text == null) return null;
  const round = roundOf(report, f);
  return round ? `${roundLabel(round.label)}: ${text}` : text;
}

// A finding's words: "East 1, 0 honba: <player>'s draw on turn 2 (...) is 7z in the record, ...".
export function findingText(f, report, red = true) {
  const d = f.data || {};
  const round = (report.rounds || []).find((r) => r.index === f.round);
  if (!WHERE.has(d.what) || !round || !Number.isInteger(d.log) || !Number.isInteger(d.wall)) return codeText(f, report) ?? f.message;
  const seated = d.seat != null && Number.isInteger(d.seat);
  if ((d.what === "deal" || d.what === "draw" || d.what === "replacement") && !seated) return codeText(f, report) ?? f.message;
  return t(`where.${d.what}`, {
    round: roundLabel(round.label),
    player: seated ? playerText(report, d.seat, round) : "",
    turn: d.turn ?? "?",
    k: d.k,
    n: d.event,
    log: tileText(d.log, red),
    wall: tileText(d.wall, red),
    pos: d.position,
  });
}

// A finding away from its report, from Python's `exports.problem_context` ({finding, round,
// game}: a summary table row's first problem, a game the audit left out), in the
// reader's words as findingsList says it; English is Python's own message.
export function problemText(context) {
  const f = context && context.finding;
  if (!f || !f.code || language() === "en") return f ? f.message : "";
  const report = { game: context.game, rounds: context.round ? [context.round] : [] };
  return findingText(f, report, redFivesOn(context.game));
}

export function findingsList(report, red = true) {
  const digests = (report.rounds || []).some((r) => Array.isArray(r.hashes));
  const findings = (report.findings || []).filter((f) => !(digests && shownWithDigests(f)));
  if (!findings.length) return null;
  const shown = findings.slice(0, MAX_FINDINGS);
  return el("section", { class: "findings" }, el("h4", {}, t("findings")),
    el("ul", {}, shown.map((f) => el("li", { class: `sev-${f.severity}`, data: { code: f.code },
      title: language() === "en" ? f.message : null }, el("span", { class: "sev" }, `${t(`severity.${f.severity}`)}: `), findingText(f, report, red),
      technical(f) ? el("details", { class: "technical" }, el("summary", {}, t("error.detail")), f.message) : null)),
      findings.length > shown.length ? el("li", {}, `… +${findings.length - shown.length}`) : null));
}
