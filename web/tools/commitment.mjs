// The commitment box in a verified Tenhou game's view: the published SHA-512 of the
// game's seed and seating (tenhou.net/stat/rand), checked by Python (`commitment`).

import { t } from "../words/i18n.mjs";
import { clear, el } from "../kit/dom.mjs";
import { ask, failure, nextId, working } from "./panel-kit.mjs";

export function commitmentBox(report) {
  const game = report.game;
  if (report.status !== "verified" || !game || !game.seed || !/^mt19937ar-sha512-n288-base64,/.test(game.seed)) return null;
  const id = nextId("commit");
  const input = el("textarea", { id, rows: "2", spellcheck: "false", autocomplete: "off", class: "mono" });
  const out = el("div", { class: "commit-out", "aria-live": "polite" });
  const button = el("button", { type: "button" }, t("commit.check"));
  const box = el("section", { class: "commitment", data: { panel: "commitment" } },
    el("h4", {}, t("commit.heading")),
    el("p", { class: "hint" }, t("commit.hint")),
    el("label", { for: id }, t("commit.label")), input, el("p", {}, button), out);
  button.addEventListener("click", async () => {
    clear(out).append(working());
    try {
      const data = await ask("commitment", { seed: game.seed, names: game.players, text: input.value });
      clear(out).append(commitmentResult(data, game));
    } catch (err) {
      clear(out).append(failure(err));
    }
  });
  return box;
}

function commitmentResult(data, game) {
  const names = game.players;
  const sorted = [...names].map((n, seat) => ({ n, seat })).sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0));
  const orderOf = (order) => el("ol", { class: "seat-order" }, [...order.slice(0, names.length)].map((digit, seat) =>
    el("li", {}, `${t(`wind.${seat}`)}: ${digit} = `, el("bdi", {}, names[seat]))));
  const verdict = data.matched
    ? el("p", { class: "commit-verdict ok" }, el("span", { "aria-hidden": "true" }, "✓ "), t("commit.matched"))
    : el("p", { class: "commit-verdict bad" }, el("span", { "aria-hidden": "true" }, "✗ "), t("commit.unmatched", { n: data.published_hashes }));
  const rows = data.candidates.flatMap((c) => Object.entries(c.hashes).map(([form, hash]) =>
    el("tr", { class: hash === data.hash ? "hit" : "" }, el("td", {}, c.seat_order),
      el("td", {}, t(`commit.form.${form}`)), el("td", { class: "mono hash" }, hash))));
  return el("div", { data: { result: data.matched ? "matched" : "unmatched" } }, verdict,
    data.matched ? el("dl", { class: "game" },
      el("dt", {}, t("commit.candidate")), el("dd", {}, t("commit.order", { order: data.seat_order }), orderOf(data.seat_order)),
      el("dt", {}, t("commit.formLabel")), el("dd", {}, t(`commit.form.${data.form}`),
        data.line ? ` (${t("commit.line", { line: data.line })})` : ""),
      el("dt", {}, t("commit.hash")), el("dd", { class: "mono hash" }, data.hash)) : null,
    el("p", { class: "hint" }, t("commit.orderHelp"), " ",
      sorted.map((p, i) => [`${i} = `, el("bdi", {}, p.n), i < sorted.length - 1 ? ", " : ""])),
    data.candidates.length > 1 ? el("p", { class: "hint" }, t("commit.ambiguous")) : null,
    el("details", { class: "candidates" }, el("summary", {}, t("commit.candidates", { n: data.candidates.length })),
      el("table", {}, el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("commit.candidate")),
        el("th", { scope: "col" }, t("commit.form")), el("th", { scope: "col" }, t("commit.hash")))),
      el("tbody", {}, rows))),
    el("p", { class: "hint" }, t("commit.note")));
}
