// The page: DOM and events only. Python runs in worker.mjs; this file sends it
// files and text and draws what comes back.

import { connect, startWorker } from "./rpc.mjs";
import { LANGUAGES, pickLanguage, setLanguage, t, translatePage } from "./i18n.mjs";
import {
  clear, el, fragmentFor, looksLikeSeed, parseFragment, pendingEl, renderReport, renderWall,
  verdictBadge,
} from "./render.mjs";
import { initPanels, redrawPanels } from "./panels.mjs";

const $ = (id) => document.getElementById(id);

const state = {
  ready: false,
  info: null,
  loadStage: "status.loading",
  loadError: null,
  waiting: 0, // requests sent before Python was ready
  total: 0,
  done: 0,
  reports: [], // every file report, in the order the files were given
  entries: [], // {name, node, reports|null}
  pasted: 0,
  seed: null, // {seed, round, players, walls}
};

const rpc = connect(startWorker(), { onEvent: workerEvent });

// --- start-up status ----------------------------------------------------------------

function workerEvent(type, payload) {
  if (type === "progress") {
    state.loadStage = `status.${payload.stage}`;
    $("load-progress").value = payload.fraction;
  } else if (type === "ready") {
    state.ready = true;
    state.info = payload;
    performance.mark("pywall:ready", { detail: payload }); // read by benchmarks/bench_web.py
    registerServiceWorker();
    $("load-progress").value = 1;
  } else if (type === "fatal") {
    state.loadError = payload.message;
  }
  showStatus();
}

// After Python is up, so that precaching the site for offline use does not
// compete with the first start.
function registerServiceWorker() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("./sw.js").catch((err) => console.warn("service worker:", err));
  }
}

function showStatus() {
  const status = $("status");
  const stateName = state.loadError ? "error" : state.ready ? "ready" : "loading";
  status.dataset.state = stateName;
  if (stateName === "ready") {
    $("status-text").textContent = t("status.ready", state.info);
  } else if (stateName === "error") {
    $("status-text").textContent = t("status.error", { message: state.loadError });
  } else {
    $("status-text").textContent = t(state.loadStage);
  }
  $("load-progress").hidden = stateName !== "loading";
  $("queue-text").textContent = !state.ready && state.waiting
    ? t("status.queued", { n: state.waiting }) : "";
}

// Every request before `ready` waits in the worker; count them for the status line.
function request(type, payload, options) {
  const early = !state.ready;
  if (early) state.waiting++;
  showStatus();
  const settle = () => {
    if (early) state.waiting--;
    showStatus();
  };
  const promise = rpc.request(type, payload, options);
  promise.then(settle, settle);
  return promise;
}

// --- files ------------------------------------------------------------------------

function addFiles(files) {
  const list = Array.from(files || []);
  if (!list.length) return;
  $("batch").hidden = false;
  for (const file of list) verifyInput(file.name, { file });
}

function verifyInput(name, payload) {
  const node = pendingEl(name);
  $("results").append(node);
  const entry = { name, node, reports: null };
  state.entries.push(entry);
  state.total++;
  showBatch();
  const started = performance.now();
  request("verify", { name, ...payload })
    .then((reports) => { entry.reports = reports; })
    .catch((err) => { entry.reports = [errorReport(name, err)]; })
    .finally(() => {
      state.done++;
      const fresh = resultNode(entry);
      node.replaceWith(fresh);
      entry.node = fresh;
      collectReports();
      showBatch();
      performance.measure("pywall:verify", { start: started, end: performance.now(), detail: name });
    });
}

function errorReport(name, err) {
  return { schema: 1, path: name, status: "error", checked: 0, game: null, rounds: [],
    findings: [{ code: err.code || "error", severity: "error", round: null, message: err.message, data: {} }] };
}

// A log gives one article; a .zip gives a section holding one article per member.
function resultNode(entry) {
  const reports = entry.reports;
  const expanded = state.entries.length === 1 && reports.length === 1;
  if (reports.length === 1 && reports[0].path === entry.name) return renderReport(reports[0], { expanded });
  const worst = ["error", "mismatch", "verified"].find((s) => reports.some((r) => r.status === s)) || "error";
  return el("section", { class: "archive", tabindex: "-1", data: { file: entry.name, verdict: worst } },
    el("header", {}, el("h3", { class: "file-name" }, entry.name), " ", verdictBadge(worst)),
    reports.map((r) => renderReport(r, { expanded: false })));
}

function collectReports() {
  state.reports = state.entries.flatMap((e) => e.reports || []);
}

function showBatch() {
  const bar = $("batch-progress");
  bar.max = Math.max(1, state.total);
  bar.value = state.done;
  $("batch-text").textContent = t("batch.progress", { done: state.done, total: state.total });
  const counts = { files: 0, verified: 0, mismatch: 0, error: 0, checked: 0 };
  for (const r of state.reports) {
    counts.files++;
    counts[r.status]++;
    counts.checked += r.checked;
  }
  $("batch-summary").textContent = counts.files ? t("batch.summary", counts) : "";
  const body = clear($("summary").tBodies[0]);
  for (const entry of state.entries) {
    for (const r of entry.reports || [{ path: entry.name, status: "pending", rounds: [], checked: "" }]) {
      body.append(el("tr", { data: { row: r.path, status: r.status } },
        el("th", { scope: "row" }, el("button", { type: "button", class: "link",
          on: { click: () => focusResult(r.path) } }, r.path)),
        el("td", {}, verdictBadge(r.status)),
        el("td", {}, String(r.rounds.length || (r.status === "pending" ? "" : 0))),
        el("td", {}, String(r.checked))));
    }
  }
}

function focusResult(path) {
  const target = [...document.querySelectorAll("[data-file]")]
    .find((n) => n.dataset.file === path);
  if (target) {
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  }
}

// --- paste and seeds ----------------------------------------------------------------

function pasteGo() {
  const text = $("paste").value;
  $("paste-msg").textContent = "";
  if (!text.trim()) {
    $("paste-msg").textContent = t("paste.empty");
    return;
  }
  if (looksLikeSeed(text)) {
    showSeed({ seed: text.trim(), round: 1, players: 4 }, true);
    return;
  }
  $("batch").hidden = false;
  state.pasted++;
  verifyInput(`pasted-${state.pasted}.xml`, { text });
}

async function showSeed({ seed, round, players }, updateUrl) {
  const view = $("seed-view");
  view.hidden = false;
  $("seed-players").value = String(players);
  $("seed-round").value = String(round);
  const cached = state.seed;
  state.seed = { seed, round, players, walls: cached && cached.seed === seed && cached.players === players ? cached.walls : null };
  const fragment = fragmentFor(seed, round, players);
  if (updateUrl) history.replaceState(null, "", fragment);
  const base = location.href.split("#")[0];
  $("seed-url").value = base + fragment;
  const embedUrl = new URL("embed.html", base).href + fragment;
  $("seed-embed").value = `<iframe src="${embedUrl}" width="760" height="640" title="pywall wall" loading="lazy"></iframe>`;
  $("seed-error").textContent = "";
  let walls = state.seed.walls;
  if (!walls || walls.rounds.length < round) {
    try {
      walls = await request("walls", { seed, rounds: Math.max(round, 8), players });
    } catch (err) {
      walls = { error: { message: err.message } };
    }
    if (state.seed.seed !== seed || state.seed.players !== players) return; // superseded
    state.seed.walls = walls.error ? null : walls;
  }
  if (state.seed.round !== round) return;
  drawSeedWall(walls);
}

function drawSeedWall(walls) {
  const target = clear($("seed-wall"));
  if (!walls || walls.error) {
    $("seed-error").textContent = t("seed.error", { message: walls ? walls.error.message : "?" });
    return;
  }
  const round = walls.rounds[state.seed.round - 1];
  target.append(el("h3", {}, `${t("seed.round")} ${state.seed.round}`),
    renderWall(round, { withLog: false, red: true }));
}

function seedStep(delta) {
  if (!state.seed) return;
  const round = Math.max(1, Math.min(64, state.seed.round + delta));
  showSeed({ ...state.seed, round }, true);
}

function fromFragment() {
  const frag = parseFragment(location.hash);
  if (frag.seed) showSeed(frag, false);
}

// --- export -----------------------------------------------------------------------

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// The CLI's report shape: per-round detail (walls, events) stays in the page.
function exportable() {
  return state.reports.map((r) => ({ ...r, rounds: r.rounds.map(({ wall, events, hands, ...rest }) => rest) }));
}

async function exportAs(format) {
  if (!state.reports.length) {
    $("batch-summary").textContent = t("export.none");
    return;
  }
  const files = exportable();
  if (format === "json") {
    const summary = { files: files.length, verified: 0, mismatch: 0, error: 0, checked: 0 };
    for (const r of files) {
      summary[r.status]++;
      summary.checked += r.checked;
    }
    download("pywall-report.json", "application/json", JSON.stringify({ schema: 1, files, summary }, null, 1));
  } else {
    const csv = await request("csv", { files });
    download("pywall-report.csv", "text/csv", csv);
  }
}

function clearResults() {
  const running = state.entries.filter((e) => !e.reports); // work still under way stays
  state.entries = running;
  clear($("results")).append(...running.map((e) => e.node));
  state.total = running.length;
  state.done = 0;
  collectReports();
  showBatch();
  $("batch").hidden = running.length === 0;
}

// --- language ---------------------------------------------------------------------

function initLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem("pywall.lang");
  } catch { /* storage may be off */ }
  const lang = setLanguage(pickLanguage(stored, navigator.languages || [navigator.language]));
  const select = $("lang");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    select.append(el("option", { value: code, lang: code }, name));
  }
  select.value = lang;
  select.addEventListener("change", () => {
    setLanguage(select.value);
    try {
      localStorage.setItem("pywall.lang", select.value);
    } catch { /* ignore */ }
    redraw();
  });
  translatePage();
}

function redraw() {
  translatePage();
  redrawPanels();
  showStatus();
  for (const entry of state.entries) {
    if (!entry.reports) continue;
    const fresh = resultNode(entry);
    entry.node.replaceWith(fresh);
    entry.node = fresh;
  }
  showBatch();
  if (state.seed && state.seed.walls) drawSeedWall(state.seed.walls);
}

// --- wiring -----------------------------------------------------------------------

function initDrop() {
  const overlay = $("drop-overlay");
  let depth = 0;
  const hasFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes("Files");
  document.addEventListener("dragenter", (e) => {
    if (!hasFiles(e)) return;
    depth++;
    overlay.hidden = false;
  });
  document.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) overlay.hidden = true;
  });
  document.addEventListener("dragover", (e) => {
    if (hasFiles(e)) e.preventDefault();
  });
  document.addEventListener("drop", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    overlay.hidden = true;
    addFiles(e.dataTransfer.files);
  });
}

function init() {
  initLanguage();
  initPanels({ request, reports: () => state.reports });
  showStatus();
  $("files").addEventListener("change", (e) => {
    addFiles(e.target.files);
    e.target.value = "";
  });
  $("paste-go").addEventListener("click", pasteGo);
  $("seed-prev").addEventListener("click", () => seedStep(-1));
  $("seed-next").addEventListener("click", () => seedStep(1));
  $("seed-round").addEventListener("change", (e) => {
    if (state.seed) showSeed({ ...state.seed, round: Math.max(1, Math.min(64, parseInt(e.target.value, 10) || 1)) }, true);
  });
  $("seed-players").addEventListener("change", (e) => {
    if (state.seed) showSeed({ ...state.seed, players: e.target.value === "3" ? 3 : 4 }, true);
  });
  $("export-json").addEventListener("click", () => exportAs("json"));
  $("export-csv").addEventListener("click", () => exportAs("csv"));
  $("clear").addEventListener("click", clearResults);
  for (const id of ["seed-url", "seed-embed"]) $(id).addEventListener("focus", (e) => e.target.select());
  initDrop();
  window.addEventListener("hashchange", fromFragment);
  fromFragment();
}

init();
