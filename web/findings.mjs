// A report's findings as a list, each said in the page's language from its code and data
// (finding-words.mjs): where a tile of the record differs from the wall, as a player would
// say it (round, player, turn, the tile in the record and in the wall). Python's English
// message is shown only for a code the page does not know (and kept as the item's title on an English page). A stated wall's per-round digest results are not listed again when
// the report shows them under its wall commitments (stated-walls.mjs).
// (render.mjs imports this module back: only its functions are used, at call time.)

import "./report-i18n.mjs";
import { numberText, windOf } from "./finding-words.mjs";
import { language, t, roundLabel } from "./i18n.mjs";
import { el, redFivesOn, tileText } from "./render.mjs";

const MAX_FINDINGS = 60;
const WHERE = new Set(["deal", "draw", "replacement", "dora", "ura"]);
// Shown round by round under the wall commitments (stated-walls.mjs).
const SHOWN_WITH_DIGESTS = new Set(["sha256_match", "salt_hash_match", "md5_match", "deal_not_committed"]);

// A player as the page names them everywhere: name and seat wind in that round.
function playerText(report, seat, round) {
  const game = report.game || {};
  const name = game.players ? game.players[seat] : "";
  const wind = t(`wind.${windOf(seat, round ? round.dealer : 0, game.player_count || 4)}`);
  return name ? t("where.player", { name, wind }) : t("where.seat", { wind });
}

const HASH_CODES = { sha256_match: "match", salt_hash_match: "match", md5_match: "match",
  hash_mismatch: "mismatch", salt_hash_mismatch: "mismatch", md5_mismatch: "mismatch" };
// A request the page's worker could not answer with a report (failedReport's codes).
const PAGE_FAILURES = ["internal", "bad_request", "not_ready", "worker_failed"];
const PLAIN = new Set(["more_mismatches", "wall_unrelated", "seed_missing", "bad_seed",
  "legacy_seed", "duplicate_attribute", "no_rounds", "no_hash", "red_fives_unusual",
  "wall_composition", "left_count_mismatch", "deal_not_committed", "log_format",
  "too_large", "unreadable", "error", ...PAGE_FAILURES]);
const num = (n) => (Number.isFinite(n) ? numberText(n) : n);
// Codes that mean the file could not be analysed: Python's words stay, folded, under the page's.
const TECHNICAL = new Set(["log_format", "too_large", "unreadable", "error", "bad_seed", ...PAGE_FAILURES]);

const roundOf = (report, f) => (report.rounds || []).find((r) => r.index === f.round);

// The words of a finding other than a located tile's, or null for a code not known here.
function codeText(f, report) {
  const d = f.data || {};
  let text = null;
  if (HASH_CODES[f.code]) text = t(`code.hash.${HASH_CODES[f.code]}`, { name: d.name ?? "" });
  else if (f.code === "dora_count_mismatch") {
    text = d.listed != null ? t("code.dora_count_mismatch", d) : t("code.dora_count_mismatch.beyond", d);
  } else if (f.code === "dice_mismatch" && Array.isArray(d.log) && Array.isArray(d.wall)) {
    text = t("code.dice_mismatch", { log: d.log.join("+"), wall: d.wall.join("+") });
  } else if (f.code === "live_wall_overrun" && Number.isInteger(d.seat)) {
    text = t("code.live_wall_overrun", { player: playerText(report, d.seat, roundOf(report, f)) });
  } else if (f.code === "incomplete_log") text = t("code.incomplete_log", { rounds: num((report.rounds || []).length) });
  else if (f.code === "salt_missing") text = t("code.salt_missing", { names: (d.names || []).join(", ") });
  else if (f.code === "wall_copy_mismatch") text = t("code.wall_copy_mismatch", { count: num(d.differences ?? 1) });
  else if (PLAIN.has(f.code)) {
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

// A finding away from its report, from Python's `report.problem_context` ({finding, round,
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
  const findings = (report.findings || []).filter((f) => !(digests && SHOWN_WITH_DIGESTS.has(f.code)));
  if (!findings.length) return null;
  const shown = findings.slice(0, MAX_FINDINGS);
  return el("section", { class: "findings" }, el("h4", {}, t("findings")),
    el("ul", {}, shown.map((f) => el("li", { class: `sev-${f.severity}`, data: { code: f.code },
      title: language() === "en" ? f.message : null }, el("span", { class: "sev" }, `${t(`severity.${f.severity}`)}: `), findingText(f, report, red),
      TECHNICAL.has(f.code) ? el("details", { class: "technical" }, el("summary", {}, t("error.detail")), f.message) : null)),
      findings.length > shown.length ? el("li", {}, `… +${findings.length - shown.length}`) : null));
}
