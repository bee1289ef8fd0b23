// A report's findings as a list. Where a tile of the record differs from the wall, the
// finding is said as a player would say it (round, player, turn, the tile in the record
// and in the wall) in the page's language, from the finding's data; any other finding as
// Python words it. A stated wall's per-round digest results are not listed again when
// the report shows them under its wall commitments (stated-walls.mjs).
// (render.mjs imports this module back: only its functions are used, at call time.)

import "./report-i18n.mjs";
import { t, roundLabel } from "./i18n.mjs";
import { el, tileText } from "./render.mjs";

const MAX_FINDINGS = 60;
const WHERE = new Set(["deal", "draw", "replacement", "dora", "ura"]);
// Shown round by round under the wall commitments (stated-walls.mjs).
const SHOWN_WITH_DIGESTS = new Set(["sha256_match", "salt_hash_match", "md5_match", "deal_not_committed"]);

function playerText(report, seat) {
  const name = report.game && report.game.players ? report.game.players[seat] : "";
  return name ? t("where.player", { name, n: seat + 1 }) : t("where.seat", { n: seat + 1 });
}

// A finding's words: "East 1, 0 honba: <player>'s draw on turn 2 (...) is 7z in the record, ...".
export function findingText(f, report, red = true) {
  const d = f.data || {};
  const round = (report.rounds || []).find((r) => r.index === f.round);
  if (!WHERE.has(d.what) || !round || !Number.isInteger(d.log) || !Number.isInteger(d.wall)) return f.message;
  const seated = d.seat != null && Number.isInteger(d.seat);
  if ((d.what === "deal" || d.what === "draw" || d.what === "replacement") && !seated) return f.message;
  return t(`where.${d.what}`, {
    round: roundLabel(round.label),
    player: seated ? playerText(report, d.seat) : "",
    turn: d.turn ?? "?",
    k: d.k,
    n: d.event,
    log: tileText(d.log, red),
    wall: tileText(d.wall, red),
    pos: d.position,
  });
}

export function findingsList(report, red = true) {
  const digests = (report.rounds || []).some((r) => Array.isArray(r.hashes));
  const findings = (report.findings || []).filter((f) => !(digests && SHOWN_WITH_DIGESTS.has(f.code)));
  if (!findings.length) return null;
  const shown = findings.slice(0, MAX_FINDINGS);
  return el("section", { class: "findings" }, el("h4", {}, t("findings")),
    el("ul", {}, shown.map((f) => el("li", { class: `sev-${f.severity}`, data: { code: f.code },
      title: f.message }, el("span", { class: "sev" }, `${f.severity}: `), findingText(f, report, red))),
      findings.length > shown.length ? el("li", {}, `… +${findings.length - shown.length}`) : null));
}
