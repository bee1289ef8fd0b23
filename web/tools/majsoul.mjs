// The Mahjong Soul tool (#tool=majsoul): a game record, or one round's paishan, salt
// and stated hash, checked by Python (`majsoul`).

import { t } from "../words/i18n.mjs";
import { pictureButtons, verdictBadge } from "../verdict/render.mjs";
import { clear, el } from "../kit/dom.mjs";
import { tileEl } from "../verdict/tile.mjs";
import { ask, failure, redrawers, working } from "./panel-kit.mjs";
import { toolSection } from "./tool-section.mjs";

export function majsoulPanel() {
  const file = el("input", { id: "ms-file", type: "file", accept: ".json,application/json,text/plain" });
  const paishan = el("textarea", { id: "ms-paishan", rows: "3", class: "mono", spellcheck: "false", autocomplete: "off" });
  const salt = el("input", { id: "ms-salt", type: "text", class: "mono", spellcheck: "false", autocomplete: "off", size: "40" });
  const hash = el("input", { id: "ms-hash", type: "text", class: "mono", spellcheck: "false", autocomplete: "off", size: "70" });
  const message = el("p", { id: "ms-error", class: "error-text", role: "alert" });
  const out = el("div", { id: "ms-out", "aria-live": "polite" });
  let last = null;
  const draw = () => { if (last) clear(out).append(majsoulResult(last)); };
  redrawers.add(draw);
  const run = async (args) => {
    message.textContent = "";
    clear(out).append(working());
    try {
      last = await ask("majsoul", args);
      draw();
    } catch (err) {
      last = null;
      clear(out).append(failure(err));
    }
  };
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (chosen) await run({ record: await chosen.text() });
    file.value = "";
  });
  const form = el("form", { class: "tool-form", novalidate: true },
    el("p", {}, el("label", { for: "ms-paishan" }, t("ms.paishan")), paishan),
    el("p", {}, el("label", { for: "ms-salt" }, t("ms.salt")), salt),
    el("p", {}, el("label", { for: "ms-hash" }, t("ms.hash")), hash),
    el("p", {}, el("button", { type: "submit" }, t("ms.check"))), message);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const h = hash.value.trim();
    if (!paishan.value.trim()) {
      message.textContent = t("ms.needPaishan");
      return;
    }
    if (h.length !== 64 && h.length !== 32) {
      message.textContent = t("ms.needHash");
      return;
    }
    run({ paishan: paishan.value, salt: salt.value || null, [h.length === 64 ? "sha256" : "md5"]: h });
  });
  return toolSection("majsoul", t("ms.heading"), el("p", { class: "hint" }, t("ms.hint")),
    el("p", { class: "ms-choose" }, el("label", { for: "ms-file" }, t("ms.file")), " ", file),
    el("h3", {}, t("ms.or")), form, out);
}

function majsoulResult(data) {
  const bad = data.rounds.filter((r) => !r.ok).length;
  return el("div", { class: "ms-result", data: { verdict: data.ok ? "verified" : "mismatch" } },
    el("p", { class: "verdict-detail" }, verdictBadge(data.ok ? "verified" : "mismatch"), " ",
      data.ok ? t("ms.ok") : t("ms.bad", { bad, n: data.rounds.length })),
    data.rounds.map((r) => el("section", { class: "ms-round", data: { round: String(r.index), verdict: r.ok ? "verified" : "mismatch" } },
      el("h4", {}, r.ok ? "✓ " : "✗ ", t("ms.round", { n: r.index + 1 }), r.label ? ` — ${r.label}` : "",
        ` (${t("ms.players", { n: r.players })})`),
      Object.keys(r.digests).length ? el("ul", { class: "digests" }, Object.entries(r.digests).map(([name, d]) =>
        el("li", { class: d.match ? "ok" : "bad", data: { digest: name, match: String(d.match) } },
          el("b", {}, d.match ? `✓ ${t("ms.match")}` : `✗ ${t("ms.mismatch")}`), ": ", t(`ms.d.${name}`),
          d.match ? null : el("span", { class: "mono hash" }, el("br"), `${t("ms.stated")} ${d.stated}`, el("br"),
            `${t("ms.computed")} ${d.computed}`)))) : el("p", {}, t("ms.nothing")),
      el("details", { open: !r.ok || data.rounds.length === 1 },
        el("summary", {}, t("ms.wall", { n: r.tiles.length })),
        el("div", { class: "tiles ms-wall" }, r.tile_ids.map((id, i) =>
          tileEl(id, { red: true, small: true, extraLabel: t("sega.position", { n: i + 1 }) }))),
        pictureButtons({ wall: r.tile_ids }, { red: true,
          title: `${t("ms.round", { n: r.index + 1 })}${r.label ? ` — ${r.label}` : ""}`,
          file: `pywall-majsoul-round-${r.index + 1}`, labels: { order: t("ms.wall", { n: r.tiles.length }) } })))),
    data.findings.filter((f) => f.severity !== "info").length
      ? el("ul", { class: "findings" }, data.findings.filter((f) => f.severity !== "info").map((f) =>
        el("li", { class: `sev-${f.severity}` }, f.message))) : null);
}
