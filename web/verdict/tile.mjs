// One tile as the player sees it: its face, its mpsz text and its words, and whether a
// game's rule deals red fives. Drawn by the verdict's wall (render.mjs), the findings, the
// hand views and the tools.

import { t } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";

// Each face is an image from the site (tiles/CODE.svg, drawn by pywall.pictures.tile_art: the
// same art as the wall pictures), so a tile looks the same with or without a CJK font,
// and offline. The tile's words are its aria-label and its mpsz label, never its glyphs.
const SUITS = ["m", "p", "s", "z"];
const FACES = new URL("../tiles/", import.meta.url).href;
export const RED_FIVES = new Set([16, 52, 88]);

export function tileText(id, red = true) {
  const kind = id >> 2;
  const suit = SUITS[Math.min(3, Math.floor(kind / 9))];
  const num = suit === "z" ? kind - 27 + 1 : (kind % 9) + 1;
  return `${red && RED_FIVES.has(id) ? 0 : num}${suit}`;
}

export function faceUrl(code) {
  return `${FACES}${code}.svg`;
}

export function tileEl(id, { red = true, small = false, extraLabel = "" } = {}) {
  const kind = id >> 2;
  const suit = SUITS[Math.min(3, Math.floor(kind / 9))];
  const isRed = red && RED_FIVES.has(id);
  const text = tileText(id, red);
  const face = el("img", { class: "face", src: faceUrl(text), alt: "", "aria-hidden": "true",
    width: "48", height: "64", draggable: "false" });
  const label = [text, isRed ? t("wall.redFive") : "", extraLabel].filter(Boolean).join(", ");
  const cls = ["tile", `suit-${suit}`, suit === "z" ? `z${kind - 26}` : "", isRed ? "red" : "",
    small ? "small" : ""].filter(Boolean).join(" ");
  return el("span", { class: cls, role: "img", "aria-label": label, title: label,
    data: { tile: String(id) } }, face, el("span", { class: "lbl", "aria-hidden": "true" }, text));
}

// Whether the game's rule deals red fives (Python's `red_fives`, from the rule it decoded).
export function redFivesOn(game) {
  return !game || game.red_fives !== false;
}
