// Walls a record states (Mahjong Soul, Riichi City): each round's digests, what each one
// covers, and what no check can prove. The report says it all: each round's `hashes`
// (pywall.checks.digests.DigestResult: name, algorithm, covers, salted, tiles, stated, computed,
// match) and the game's `limits` (pywall.checks.stated.LIMITS codes); nothing here decides what
// a digest covers, it only words what the report carries.

import "../words/report-i18n.mjs";
import { t, tn, roundLabel } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";

const ALGORITHMS = { sha256: "SHA-256", md5: "MD5" };
const STATES = ["match", "mismatch", "unchecked", "none"];
const ICONS = { match: "✓", mismatch: "✗", unchecked: "?", none: "–" };

// A digest's name as the record calls it; one a seat's start event states, with that seat
// (counted from 1): "hand_cards_sha_256 (seat 1's start)" in the reader's words.
export function digestName(h) {
  return h.seat == null ? h.name : `${h.name} (${t("hash.seatStart", { n: h.seat + 1 })})`;
}

function has(key) {
  return t(key) !== key;
}

// A round's digests as one state: mismatch, none (no digest of the wall), unchecked, match.
export function hashState(hashes) {
  if (hashes.some((h) => h.match === false)) return "mismatch";
  const wall = hashes.filter((h) => h.covers !== "salt");
  if (!wall.length) return "none";
  return wall.some((h) => h.match == null) ? "unchecked" : "match";
}

// What the round's digests say, in words; copies with the same result are said once.
export function hashPhrases(hashes) {
  const groups = new Map();
  for (const h of hashes) {
    if (h.match == null) continue;
    const key = [h.covers, h.salted, h.algorithm, h.match, h.tiles].join("|");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(h);
  }
  const out = [];
  for (const group of groups.values()) {
    const h = group[0];
    const state = h.match ? "match" : "mismatch";
    const exact = h.covers === "salt" ? `hash.salt.${state}`
      : `hash.${h.covers}.${h.salted ? "salted" : "unsalted"}.${state}`;
    const words = t(has(exact) ? exact : `hash.other.${state}`,
      { algo: ALGORITHMS[h.algorithm] || h.algorithm, tiles: h.tiles, name: digestName(h) });
    out.push(group.length > 1 ? `${words} ${t("hash.copies", { count: group.length })}` : words);
  }
  const unchecked = hashes.filter((h) => h.match == null).map(digestName);
  if (unchecked.length) out.push(t("hash.unchecked", { names: unchecked.join(", ") }));
  if (!hashes.some((h) => h.covers !== "salt")) out.push(t("hash.none"));
  return out;
}

function roundLine(round) {
  const state = hashState(round.hashes);
  return el("li", { class: `hash-${state}`, data: { round: String(round.index), hash: state } },
    el("span", { class: "icon", "aria-hidden": "true" }, ICONS[state]), " ",
    el("span", { class: "round-label" }, roundLabel(round.label)), ": ", hashPhrases(round.hashes).join("; "));
}

// The report's section: the digests of every round, then what the checks cannot prove.
export function commitmentsSection(report) {
  const rounds = (report.rounds || []).filter((r) => Array.isArray(r.hashes));
  const limits = (report.game && report.game.limits) || [];
  if (!rounds.length && !limits.length) return null;
  const counts = Object.fromEntries(STATES.map((s) => [s, 0]));
  for (const r of rounds) counts[hashState(r.hashes)]++;
  const said = STATES.filter((s) => counts[s]).map((s) => tn(`stated.count.${s}`, counts[s])).join(", ");
  const worst = STATES.slice(1).find((s) => counts[s]) || "match";
  return el("section", { class: "wall-commitments", data: { hash: rounds.length ? worst : "none" } },
    el("h4", {}, t("stated.heading")),
    rounds.length ? [
      el("p", { class: "hint" }, t("stated.intro")),
      el("p", { class: "commitments-summary" }, tn("stated.summary", rounds.length, { counts: said })),
      el("ul", { class: "round-hashes" }, rounds.map(roundLine)),
    ] : null,
    limits.length ? [
      el("h5", {}, t("stated.limits")),
      el("ul", { class: "limits" }, limits.map((code) => el("li", { data: { limit: code } }, t(`limit.${code}`)))),
    ] : null);
}

// Under an opened round's wall: its digests as stated and as computed.
export function roundDigests(round) {
  if (!Array.isArray(round.hashes)) return null;
  const state = hashState(round.hashes);
  return el("section", { class: "round-digests", data: { hash: state } },
    el("h5", {}, t("stated.digests")),
    el("p", { class: `hash-${state}` }, el("span", { class: "icon", "aria-hidden": "true" }, ICONS[state]), " ",
      hashPhrases(round.hashes).join("; ")),
    round.hashes.length ? el("ul", {}, round.hashes.map((h) => el("li", { data: { match: String(h.match) } },
      el("b", {}, digestName(h)), ` (${ALGORITHMS[h.algorithm] || h.algorithm}): ${t("hash.stated")} `, el("code", {}, h.stated),
      h.computed ? [` · ${t("hash.computed")} `, el("code", {}, h.computed)] : null))) : null);
}
