// The box under the paste box (#link-out) says what the last pasted text or handed-over
// link is: a game's link and how to bring its record (links.mjs), a list of games
// (game-list.mjs), or why a list was refused. It shows one answer, the last one given:
// each replaces the one before, a change of language draws that one again (never an
// earlier one), and Go takes it away at once while the new text is worked out.

import { subscribe } from "../kit/store.mjs";
import { clear } from "../kit/dom.mjs";

let drawn = null; // (box) -> void: draws the answer shown into the emptied box, or null

export function initAnswer() {
  subscribe(["language"], redraw);
}

// Shows the answer `draw` draws (null: none), in place of the one shown.
export function showAnswer(draw) {
  drawn = draw;
  redraw();
}

function redraw() {
  const box = clear(document.getElementById("link-out"));
  if (drawn) drawn(box);
}
