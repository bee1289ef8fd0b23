// The SEGA MJ tool (#tool=sega): four player seeds and the uncertainty value give a
// wall (Python's `sega`); the form checks what a person typed before asking.

import { t } from "./i18n.mjs";
import { clear, el, tileEl } from "./render.mjs";
import { ask, failure, redrawers, working } from "./panel-kit.mjs";
import { toolSection } from "./tool-section.mjs";

const SEGA_ALPHABET = /^[0-9a-zA-Z_-]$/;

function segaProblem(seeds, value) {
  for (let i = 0; i < seeds.length; i++) {
    const seed = seeds[i];
    const chars = [...seed];
    if (chars.length !== 27) return t("sega.err.length", { n: i + 1, len: chars.length });
    const bad = chars.findIndex((c) => !SEGA_ALPHABET.test(c));
    if (bad >= 0) return t("sega.err.char", { n: i + 1, pos: bad + 1, ch: chars[bad] });
  }
  if (!/^\d{1,10}$/.test(value) || Number(value) > 4294967295) return t("sega.err.value");
  return null;
}

export function segaPanel() {
  const seedInputs = [1, 2, 3, 4].map((n) => {
    const id = `sega-seed-${n}`;
    return { id, n, input: el("input", { id, type: "text", class: "mono seed-input", spellcheck: "false", autocomplete: "off", size: "30" }) };
  });
  const value = el("input", { id: "sega-uncertainty", type: "text", inputmode: "numeric", autocomplete: "off", size: "12" });
  const message = el("p", { id: "sega-error", class: "error-text", role: "alert" });
  const out = el("div", { id: "sega-out", "aria-live": "polite" });
  const form = el("form", { class: "tool-form", novalidate: true },
    seedInputs.map(({ id, n, input }) => el("p", {}, el("label", { for: id }, t("sega.seed", { n })), input)),
    el("p", {}, el("label", { for: "sega-uncertainty" }, t("sega.uncertainty")), value),
    el("p", {}, el("button", { type: "submit" }, t("sega.show"))), message);
  let last = null;
  const draw = () => { if (last) clear(out).append(segaResult(last)); };
  redrawers.add(draw);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const seeds = seedInputs.map(({ input }) => input.value.trim());
    const problem = segaProblem(seeds, value.value.trim());
    message.textContent = problem || "";
    if (problem) {
      clear(out);
      last = null;
      return;
    }
    clear(out).append(working());
    try {
      last = await ask("sega", { seeds, uncertainty: value.value.trim() });
      draw();
    } catch (err) {
      last = null;
      clear(out).append(failure(err));
    }
  });
  return toolSection("sega", t("sega.heading"), el("p", { class: "hint" }, t("sega.hint")), form, out);
}

function segaResult(data) {
  const [a, b] = data.dice;
  const tiles = data.tenhou_ids.map((id, i) => el("span", { class: "slot", data: { pos: String(i) } },
    tileEl(id, { red: false, extraLabel: t("sega.position", { n: i + 1 }) }),
    el("span", { class: "marks", "aria-hidden": "true" }, (i + 1) % 17 === 1 ? String(i + 1) : "")));
  return el("div", { class: "sega-result", data: { result: "wall" } },
    el("p", { class: "dice-line" }, el("span", { class: "dice", "aria-hidden": "true" },
      ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"][a - 1], ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"][b - 1]), " ",
      el("b", {}, t("sega.dice", { a, b, sum: a + b }))),
    el("p", {}, t("sega.break", { wall: t(`sega.break.${data.break.index}`), n: data.break.stacks_from_right })),
    el("h4", {}, t("sega.wall")),
    el("div", { class: "tiles sega-wall" }, tiles),
    el("p", { class: "hint" }, t("sega.red")));
}
