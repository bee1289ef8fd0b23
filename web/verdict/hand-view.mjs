// A hand's shanten and effective tiles as the starting-hands panel and the hand
// calculator show them (the numbers are Python's: pywall.analysis.hands).

import { t } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";
import { tileEl } from "./tile.mjs";

export function shantenText(n) {
  return n <= 0 ? t(`shanten.${n}`) : t("shanten.n", { n });
}

export function formsText(s) {
  return s.chiitoi == null ? t("shanten.formsShort", s) : t("shanten.forms", s);
}

// One mpsz kind text ("5m") -> a Tenhou-style id of that kind for tileEl.
export function idOfKindText(text) {
  const kind = "mpsz".indexOf(text[1]) * 9 + Number(text[0]) - 1;
  return kind * 4 + (kind % 9 === 4 && kind < 27 ? 1 : 0);
}

function tileList(texts, remaining) {
  return el("span", { class: "tiles accept" }, texts.map((k) =>
    el("span", { class: "accept-tile" }, tileEl(idOfKindText(k), { small: true, red: false }),
      remaining ? el("small", {}, `×${remaining[k]}`) : null)));
}

function splitMpsz(mpsz) {
  const out = [];
  let digits = [];
  for (const ch of mpsz) {
    if (/[0-9]/.test(ch)) digits.push(ch);
    else {
      out.push(...digits.map((d) => d + ch));
      digits = [];
    }
  }
  return out;
}

// A 13-tile hand's effective tiles, or a 14-tile hand's 牌理 table (shared with calc.mjs).
export function efficiencyView(data) {
  if (data.effective) {
    const e = data.effective;
    return el("p", { class: "effective" }, el("span", { class: "eff-label" }, `${t("hands.effective")}: `),
      e.tiles ? [tileList(splitMpsz(e.tiles), e.remaining), " ", el("b", {}, t("hands.tilesLeft", { n: e.total }))]
        : t("hands.none"));
  }
  return el("table", { class: "discards" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("hands.discard")),
      el("th", { scope: "col" }, t("audit.shanten")),
      el("th", { scope: "col" }, t("hands.accepts")), el("th", { scope: "col" }, t("hands.left")))),
    el("tbody", {}, data.discards.map((row) => el("tr", { data: { discard: row.discard } },
      el("th", { scope: "row" }, tileEl(idOfKindText(row.discard), { small: true, red: false })),
      el("td", {}, shantenText(row.shanten)),
      el("td", { data: { label: t("hands.accepts") } }, row.tiles ? tileList(splitMpsz(row.tiles), row.remaining) : t("hands.none")),
      el("td", { class: "num" }, t("hands.tilesLeft", { n: row.total }))))));
}
