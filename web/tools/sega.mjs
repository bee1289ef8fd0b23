// The SEGA MJ tool (#tool=sega): four player seeds and the uncertainty value give a
// wall (Python's `sega`); the form checks what a person typed before asking. A shown
// wall's values stay in the address (#tool=sega&seeds=S1,S2,S3,S4&u=N), so it can be
// linked and embedded; such an address fills the form and shows the wall.

import "../words/help-i18n.mjs";
import "../words/records-i18n.mjs";
import { t, withLanguage } from "../words/i18n.mjs";
import { pictureButtons } from "../verdict/render.mjs";
import { clear, el } from "../kit/dom.mjs";
import { tileEl } from "../verdict/tile.mjs";
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
  const show = async (problem) => {
    const seeds = seedInputs.map(({ input }) => input.value.trim());
    problem = problem || segaProblem(seeds, value.value.trim());
    message.textContent = problem || "";
    if (problem) {
      clear(out);
      last = null;
      return;
    }
    const fragment = withLanguage(`#tool=sega&seeds=${seeds.join(",")}&u=${value.value.trim()}`);
    if (location.hash !== fragment) history.replaceState(null, "", fragment);
    clear(out).append(working());
    try {
      last = { ...(await ask("sega", { seeds, uncertainty: value.value.trim() })), link: location.href };
      draw();
    } catch (err) {
      last = null;
      clear(out).append(failure(err));
    }
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    show(null);
  });
  // An address with seeds= or u= fills the form (as it came: a bad value is named, not fixed).
  const fromAddress = () => {
    const linked = linkedValues(location.hash);
    if (!linked) return;
    seedInputs.forEach(({ input }, i) => { input.value = linked.seeds[i] ?? ""; });
    value.value = linked.u;
    show(linked.count === 4 ? null : t("sega.err.linkSeeds", { n: linked.count }));
  };
  window.addEventListener("hashchange", fromAddress);
  queueMicrotask(fromAddress);
  return toolSection("sega", t("sega.heading"), el("p", { class: "hint" }, t("sega.hint")),
    el("p", { class: "sega-where" }, t("sega.where")),
    el("p", { class: "sega-proves hint" }, t("sega.proves")),
    el("p", { class: "sega-cannot hint" }, t("sega.cannot")), form, out);
}

// seeds= and u= of #tool=sega&seeds=S1,S2,S3,S4&u=N; null when the address is not such a link.
function linkedValues(hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ""));
  if (params.get("tool") !== "sega" || !(params.has("seeds") || params.has("u"))) return null;
  const seeds = (params.get("seeds") || "").split(",").filter(Boolean);
  return { seeds: seeds.slice(0, 4), count: seeds.length, u: (params.get("u") || "").slice(0, 100) };
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
    el("h3", {}, t("sega.wall")),
    el("div", { class: "tiles sega-wall" }, tiles),
    el("p", { class: "hint" }, t("sega.red")),
    pictureButtons({ wall: data.tenhou_ids, dice: data.dice }, { red: false, title: t("sega.heading"),
      file: "pywall-sega-wall", labels: { order: t("sega.wall") } }),
    el("p", { class: "seed-link" }, el("label", { for: "sega-url" }, t("sega.link")),
      el("input", { id: "sega-url", type: "text", readonly: true, value: data.link,
        on: { focus: (e) => e.target.select() } })));
}
