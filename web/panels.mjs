// The panels: Tenhou's pre-game commitment (in a verified game's view), each round's
// starting hands, the SEGA MJ and Mahjong Soul tools (#tool=sega, #tool=majsoul) and
// the starting-hand audit of a batch. DOM only: Python answers through the worker's
// generic `call` request ({fn, args} -> a whitelisted pywall.api function). Every
// string from a file or a person is added as text.

import "./panels-i18n.mjs";
import { language, t, translatePage } from "./i18n.mjs";
import { clear, el, setRenderHooks, tileEl, verdictBadge } from "./render.mjs";
import { barChart } from "./charts.mjs";

let request = null; // (type, payload) -> Promise, from app.js
let getReports = () => [];
let uid = 0;
const nextId = (prefix) => `${prefix}-${++uid}`;
const redrawers = new Set(); // views that re-render their last answer on a language change

async function call(fn, args) {
  const out = await request("call", { fn, args });
  if (out && out.error && !out.games) throw Object.assign(new Error(out.error.message), { code: out.error.code });
  return out;
}

function failure(err) {
  return el("p", { class: "error-text", role: "alert", data: { result: "error" } },
    "⚠ ", t("call.failed", { message: err.message || String(err) }));
}

export function shantenText(n) {
  return n <= 0 ? t(`shanten.${n}`) : t("shanten.n", { n });
}

function formsText(s) {
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
      el("td", {}, row.tiles ? tileList(splitMpsz(row.tiles), row.remaining) : t("hands.none")),
      el("td", { class: "num" }, t("hands.tilesLeft", { n: row.total }))))));
}

// --- the commitment box in a verified Tenhou game's view ------------------------------

function commitmentBox(report) {
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
    clear(out).append(el("p", { class: "hint" }, t("call.working")));
    try {
      const data = await call("commitment_json", { seed: game.seed, names: game.players, text: input.value });
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

// --- each round's starting hands (one call when the round is opened) -------------------

function roundHands(round, game, red) {
  if (!round.wall || !round.hands) return null;
  const box = el("section", { class: "start-hands", data: { panel: "start-hands" }, "aria-live": "polite" },
    el("h5", {}, t("hands.heading")), el("p", { class: "hint" }, t("call.working")));
  call("round_hands_json", { round_json: { wall: round.wall, hands: round.hands } })
    .then((data) => {
      box.lastChild.replaceWith(el("div", {}, data.seats.map((s) => seatHand(s, game, red)),
        el("p", { class: "hint" }, t("hands.visibleNote"))));
      box.dataset.state = "done";
    })
    .catch((err) => box.lastChild.replaceWith(failure(err)));
  return box;
}

function seatHand(s, game, red) {
  const name = game && game.players[s.seat] ? game.players[s.seat] : t("wall.seat", { n: s.seat + 1 });
  const tiles = s.ids.map((id) => tileEl(id, { red, small: true, extraLabel: id === s.draw ? t("hands.dealerNote") : "" }));
  return el("div", { class: "seat-hand", data: { seat: String(s.seat), shanten: String(s.shanten.minimum) } },
    el("p", { class: "seat-head" }, el("span", { class: `who seat${s.seat}`, "aria-hidden": "true" }, String(s.seat + 1)), " ",
      el("bdi", {}, name), s.dealer ? ` (${t("wall.dealer")}; ${t("hands.dealerNote")})` : "", " — ",
      el("b", { class: "shanten" }, shantenText(s.shanten.minimum)),
      el("span", { class: "forms" }, ` (${formsText(s.shanten)})`)),
    el("span", { class: "tiles" }, tiles), efficiencyView(s));
}

// --- SEGA MJ -----------------------------------------------------------------------------

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

function segaPanel() {
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
    clear(out).append(el("p", { class: "hint" }, t("call.working")));
    try {
      last = await call("sega_json", { seeds, uncertainty: value.value.trim() });
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

// --- Mahjong Soul ------------------------------------------------------------------------

function majsoulPanel() {
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
    clear(out).append(el("p", { class: "hint" }, t("call.working")));
    try {
      last = await call("majsoul_json", args);
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
          tileEl(id, { red: true, small: true, extraLabel: t("sega.position", { n: i + 1 }) })))))),
    data.findings.filter((f) => f.severity !== "info").length
      ? el("ul", { class: "findings" }, data.findings.filter((f) => f.severity !== "info").map((f) =>
        el("li", { class: `sev-${f.severity}` }, f.message))) : null);
}

// --- tool sections and the URL fragment (#tool=sega | #tool=majsoul) ---------------------

function toolSection(name, heading, ...body) {
  const id = `tool-${name}-heading`;
  return el("section", { id: `tool-${name}`, class: "tool", data: { tool: name }, "aria-labelledby": id, hidden: true },
    el("h2", { id, tabindex: "-1" }, heading), body,
    el("p", {}, el("a", { href: "#", class: "close-tool" }, t("nav.close"))));
}

function toolFromHash() {
  const m = /(?:^#|&)tool=(\w+)/.exec(location.hash);
  return m ? m[1] : null;
}

function showTool(focus) {
  const name = toolFromHash();
  for (const section of document.querySelectorAll("section.tool")) {
    const on = section.dataset.tool === name;
    section.hidden = !on;
    if (on && focus) section.querySelector("h2").focus();
  }
  for (const link of document.querySelectorAll("nav.tools a[data-tool]")) {
    if (link.dataset.tool === (name || "verify")) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

function buildTools() {
  const host = document.getElementById("tool-panels");
  if (!host) return;
  clear(host).append(segaPanel(), majsoulPanel());
}

// --- the audit of a batch ------------------------------------------------------------------

function fmt(x, digits = 3) {
  if (x == null || Number.isNaN(x)) return "–";
  return Math.abs(x) >= 1000 ? Math.round(x).toLocaleString("en") : x.toFixed(digits);
}

function pText(p) {
  return p < 1e-6 ? "< 1e-6" : p.toPrecision(3);
}

function sizeChart(part, who) {
  const keys = Object.keys(part.expected).sort((a, b) => Number(a) - Number(b));
  const title = t("audit.chartTitle", { who, size: t(`audit.size.${part.tiles}`) });
  const observed = keys.map((k) => part.observed[k] || 0);
  const expected = keys.map((k) => part.expected[k]);
  const chart = barChart({ title, categories: keys.map((k) => shantenText(Number(k))), xLabel: t("audit.shanten"),
    series: [{ name: t("audit.observed"), cls: "observed", values: observed },
      { name: t("audit.expected"), cls: "expected", values: expected }] });
  const table = el("table", { class: "audit-table" },
    el("caption", { class: "sr-only" }, title),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("audit.shanten")),
      el("th", { scope: "col" }, t("audit.observed")), el("th", { scope: "col" }, t("audit.expected")))),
    el("tbody", {}, keys.map((k, i) => el("tr", {}, el("th", { scope: "row" }, shantenText(Number(k))),
      el("td", { class: "num" }, String(observed[i])), el("td", { class: "num" }, expected[i].toFixed(2))))));
  return el("figure", { class: "audit-chart", data: { tiles: String(part.tiles) } },
    el("figcaption", {}, el("b", {}, t(`audit.size.${part.tiles}`)), ` — ${t("audit.hands", { n: part.hands })}`),
    chart,
    el("details", {}, el("summary", {}, t("audit.table")), table),
    el("p", {}, t("audit.mean", { mean: fmt(part.mean), fair: fmt(part.expected_mean), z: fmt(part.z, 2), p: pText(part.z_p) })),
    el("p", {}, t("audit.chi", { chi: fmt(part.chi2, 2), dof: part.dof, p: pText(part.p) })));
}

function groupView(group, alpha, label) {
  const tests = 2 + (group.dora ? 1 : 0);
  const smallest = Math.min(group.p, group.shanten_sum.p, group.dora ? group.dora.p : 1);
  return el("section", { class: "audit-group", data: { group: group.label, flagged: String(group.flagged) } },
    el("h4", {}, el("bdi", {}, label), ` — ${t("audit.hands", { n: group.hands })}`),
    el("p", { class: `audit-verdict ${group.flagged ? "bad" : "ok"}` },
      el("span", { "aria-hidden": "true" }, group.flagged ? "⚠ " : "✓ "),
      group.flagged ? t("audit.flagged", { alpha, k: tests }) : t("audit.ok"),
      ` (${t("audit.smallest", { p: pText(smallest) })})`),
    el("div", { class: "audit-charts" }, group.by_tiles.map((part) => sizeChart(part, label))),
    el("p", {}, t("audit.chi", { chi: fmt(group.chi2, 2), dof: group.dof, p: pText(group.p) })),
    group.dora ? el("p", {}, t("audit.dora", { obs: fmt(group.dora.observed, 0), exp: fmt(group.dora.expected, 1),
      z: fmt(group.dora.z, 2), p: pText(group.dora.p) })) : null);
}

function auditView(data) {
  const games = data.games;
  const excluded = games.excluded.length ? el("details", { class: "excluded" },
    el("summary", {}, t("audit.excluded", { n: games.excluded.length })),
    el("ul", {}, games.excluded.map((e) => el("li", { data: { kind: e.kind } }, el("bdi", {}, e.path), `: ${e.reason}`)))) : null;
  if (data.error) return el("div", { data: { result: "none" } }, el("p", {}, t("audit.none")), excluded);
  const players = [...data.players].sort((a, b) => b.hands - a.hands);
  return el("div", { data: { result: "audit" } },
    el("p", {}, t("audit.summary", { games: games.used, hands: games.hands })), excluded,
    groupView(data.overall, data.alpha, t("audit.overall")),
    el("details", { class: "audit-players" }, el("summary", {}, `${t("audit.players")} (${players.length})`),
      players.map((g) => groupView(g, data.alpha, g.label))),
    el("h4", {}, t("audit.explanationHeading")),
    el("p", { class: "explanation" }, language() === "en" ? data.explanation : t("audit.explanation")));
}

function auditControls() {
  const batch = document.getElementById("batch");
  if (!batch || document.getElementById("audit-view")) return;
  const out = el("div", { id: "audit-out", "aria-live": "polite" });
  const button = el("button", { id: "audit-go", type: "button" }, t("audit.button"));
  const section = el("section", { id: "audit-view", class: "audit", "aria-labelledby": "audit-heading" },
    el("h3", { id: "audit-heading" }, t("audit.heading")), el("p", {}, button), out);
  batch.append(section);
  let last = null;
  const draw = () => { if (last) clear(out).append(auditView(last)); };
  redrawers.add(draw);
  button.addEventListener("click", async () => {
    // Only what the audit reads: walls, hands and whether the dealer drew (events trimmed).
    const reports = getReports().map((r) => ({
      path: r.path, status: r.status, findings: (r.findings || []).filter((f) => f.severity === "error").slice(0, 1),
      game: r.game && { players: r.game.players, player_count: r.game.player_count, seed: r.game.seed },
      rounds: (r.rounds || []).map((x) => ({ wall: x.wall, hands: x.hands,
        events: (x.events || []).filter((e) => e[1] === "draw").slice(0, 1) })),
    }));
    button.disabled = true;
    clear(out).append(el("p", { class: "hint" }, t("audit.working")));
    try {
      last = await request("call", { fn: "audit_json", args: { reports_json: JSON.stringify(reports) } });
      if (last.error && !last.games) throw new Error(last.error.message);
      draw();
    } catch (err) {
      last = null;
      clear(out).append(failure(err));
    } finally {
      button.disabled = false;
    }
  });
}

// --- wiring ----------------------------------------------------------------------------------

export function initPanels(options) {
  request = options.request;
  getReports = options.reports || getReports;
  setRenderHooks({ report: commitmentBox, round: roundHands });
  buildTools();
  auditControls();
  translatePage();
  showTool(false);
  window.addEventListener("hashchange", () => showTool(true));
}

// After a language change: rebuild the tool forms' words and redraw the last answers.
export function redrawPanels() {
  relabel();
  for (const draw of redrawers) draw();
}

// Labels, headings and buttons of the tool forms and the audit, in the current language.
function relabel() {
  const set = (selector, text) => { const node = document.querySelector(selector); if (node) node.textContent = text; };
  set("#tool-sega-heading", t("sega.heading"));
  set("#tool-majsoul-heading", t("ms.heading"));
  for (const n of [1, 2, 3, 4]) set(`label[for=sega-seed-${n}]`, t("sega.seed", { n }));
  set("label[for=sega-uncertainty]", t("sega.uncertainty"));
  set("#tool-sega button[type=submit]", t("sega.show"));
  set("#tool-sega .hint", t("sega.hint"));
  set("#tool-majsoul .hint", t("ms.hint"));
  set("label[for=ms-file]", t("ms.file"));
  set("#tool-majsoul h3", t("ms.or"));
  set("label[for=ms-paishan]", t("ms.paishan"));
  set("label[for=ms-salt]", t("ms.salt"));
  set("label[for=ms-hash]", t("ms.hash"));
  set("#tool-majsoul button[type=submit]", t("ms.check"));
  for (const a of document.querySelectorAll("a.close-tool")) a.textContent = t("nav.close");
  set("#audit-heading", t("audit.heading"));
  set("#audit-go", t("audit.button"));
}
