// The pool's size setting: "Automatic (n)" or a number of workers from 1 to one per
// core (pool.mjs keeps the choice in localStorage). A smaller choice lets idle workers
// beyond it go at once; a larger one starts workers when work needs them.

import "../words/pool-i18n.mjs";
import { t } from "../words/i18n.mjs";
import { subscribe } from "../kit/store.mjs";
import { el } from "../kit/dom.mjs";
import { automaticSize, chooseSize, chosenSize, cores, sizeLimit } from "./pool.mjs";

const $ = (id) => document.getElementById(id);

function fill(select) {
  const options = [el("option", { value: "" }, t("pool.auto", { n: automaticSize() }))];
  for (let n = 1; n <= sizeLimit(); n++) options.push(el("option", { value: String(n) }, String(n)));
  select.replaceChildren(...options);
  select.value = chosenSize() == null ? "" : String(chosenSize());
  $("workers-hint").textContent = t("pool.hint", { cores: cores() });
}

// onChange(): after a new choice (the pool trims itself, the status line is redrawn).
export function initPoolSetting(onChange) {
  subscribe(["language"], redrawPoolSetting);
  const select = $("workers");
  if (!select) return;
  fill(select);
  select.addEventListener("change", () => {
    chooseSize(select.value === "" ? null : Number(select.value));
    onChange();
  });
}

// After a language change.
export function redrawPoolSetting() {
  const select = $("workers");
  if (select) fill(select);
}
