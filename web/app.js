// The page: DOM and events only. Python runs in worker.mjs; this file sends it
// files and text and draws what comes back.

import { connect, startWorker } from "./rpc.mjs";
import { initLanguageSelect, t, translatePage } from "./i18n.mjs";
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
  reports: [], // every log's file report, in the order the files were given (archives: see entries)
  entries: [], // {name, node, reports|null, rows|null, archive|null, file}
  runs: 0, // archives started
  page: 0, // of the summary table
  started: null, // performance.now() of the batch's first request
  finished: null, // ... and of its latest answer
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
// A log (or pasted text) is one request and one report. A zip or a phoenix-logs
// database is an archive: the worker streams through it a chunk of games at a
// time and the page keeps one compact row per game (path, status, round_count,
// checked, errors, first_problem: pywall.api.ROW_FIELDS), plus wall detail for
// the first games and first mismatches only. Any other game is checked again
// from the chosen File (kept as a reference, not as bytes) when a person opens
// it. The summary table draws one page of rows at a time.

const SQLITE_MAGIC = "SQLite format 3\0";
const ZIP_MAGICS = ["PK\x03\x04", "PK\x05\x06"];
const PAGE_SIZE = 100;
const SMALL_ARCHIVE = 20; // an archive this small shows every game like a file
const MAX_OPENED = 10; // games of an archive drawn at once

async function isArchive(file) {
  const head = String.fromCharCode(...new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  return head === SQLITE_MAGIC || ZIP_MAGICS.includes(head.slice(0, 4));
}

function addFiles(files) {
  const list = Array.from(files || []);
  if (!list.length) return;
  $("batch").hidden = false;
  for (const file of list) {
    const entry = newEntry(file.name);
    isArchive(file).catch(() => false).then((archive) => {
      if (archive) startArchive(entry, file);
      else verifyEntry(entry, { file });
    });
  }
}

function newEntry(name) {
  const node = pendingEl(name);
  $("results").append(node);
  const entry = { name, node, reports: null, rows: null, archive: null };
  state.entries.push(entry);
  if (state.started == null) state.started = performance.now();
  scheduleBatch();
  return entry;
}

function verifyInput(name, payload) {
  verifyEntry(newEntry(name), payload);
}

function verifyEntry(entry, payload) {
  const started = performance.now();
  request("verify", { name: entry.name, ...payload })
    .then((text) => { entry.reports = JSON.parse(text).files; })
    .catch((err) => { entry.reports = [errorReport(entry.name, err)]; })
    .finally(() => {
      entry.rows = entry.reports.map(rowOf);
      state.finished = performance.now();
      const fresh = resultNode(entry);
      entry.node.replaceWith(fresh);
      entry.node = fresh;
      collectReports();
      scheduleBatch(); // once a frame, not once a file: a batch would redraw the table n times
      performance.measure("pywall:verify", { start: started, end: performance.now(), detail: entry.name });
    });
}

function errorReport(name, err) {
  return { schema: 1, path: name, status: "error", checked: 0, game: null, rounds: [],
    findings: [{ code: err.code || "error", severity: "error", round: null, message: err.message, data: {} }] };
}

// The compact row of a whole report, as pywall.api.compact_row makes it for archives.
function rowOf(report) {
  const errors = (report.findings || []).filter((f) => f.severity === "error");
  return { path: report.path, status: report.status, round_count: report.rounds.length, checked: report.checked,
    errors: errors.length, first_problem: errors.length ? errors[0].message : "" };
}

// A log gives one article (a .zip sent as a log, as before: a section of articles).
function resultNode(entry) {
  const reports = entry.reports;
  const expanded = state.entries.length === 1 && reports.length === 1;
  if (reports.length === 1 && reports[0].path === entry.name) return renderReport(reports[0], { expanded });
  const worst = aggregate(reports.map((r) => r.status));
  return el("section", { class: "archive", tabindex: "-1", data: { file: entry.name, verdict: worst } },
    el("header", {}, el("h3", { class: "file-name" }, entry.name), " ", verdictBadge(worst)),
    reports.map((r) => renderReport(r, { expanded: false })));
}

// An archive's verdict: mismatch if any game mismatched (what an auditor looks
// for), else error if any could not be read (or the run was stopped before the
// end), else verified.
function aggregate(statuses, complete = true) {
  const has = new Set(statuses);
  if (has.has("mismatch")) return "mismatch";
  if (has.has("error") || !complete || !has.size) return "error";
  return "verified";
}

// --- archives ---------------------------------------------------------------------

function startArchive(entry, file) {
  const run = `run-${++state.runs}`;
  entry.file = file;
  entry.rows = [];
  entry.archive = { run, total: 0, done: 0, rate: 0, finished: false, cancelled: false, failed: null,
    details: new Map(), shown: [], started: performance.now() };
  const fresh = archiveNode(entry);
  entry.node.replaceWith(fresh);
  entry.node = fresh;
  request("archive", { run, name: entry.name, file }, { onProgress: (p) => archiveProgress(entry, p) })
    .then((end) => { Object.assign(entry.archive, { cancelled: end.cancelled, done: end.done, total: end.total }); })
    .catch((err) => { entry.archive.failed = err.message; })
    .finally(() => {
      entry.archive.finished = true;
      state.finished = performance.now();
      performance.measure("pywall:archive", { start: entry.archive.started, end: performance.now(),
        detail: { name: entry.name, games: entry.rows.length } });
      updateArchive(entry);
      showBatch();
    });
  showBatch();
}

function archiveProgress(entry, p) {
  const a = entry.archive;
  Object.assign(a, { total: p.total, done: p.done, rate: p.rate });
  for (const row of p.rows) entry.rows.push(row);
  for (const report of p.details) a.details.set(report.i, report);
  if (a.total <= SMALL_ARCHIVE) {
    for (const report of p.details) {
      if (report.path !== entry.name) showGame(entry, report, { focus: false, expanded: false });
    }
  }
  updateArchive(entry);
  scheduleBatch();
}

function archiveNode(entry) {
  const a = entry.archive;
  const parts = {
    badge: el("span", { class: "archive-badge" }),
    bar: el("progress", { max: "1", value: "0", "aria-label": entry.name }),
    text: el("span", { class: "archive-progress-text", "aria-live": "polite" }),
    counts: el("p", { class: "archive-counts" }),
    problem: el("p", { class: "archive-problem error-text" }),
    cancel: el("button", { type: "button", class: "archive-cancel",
      on: { click: () => request("archive_cancel", { run: a.run }) } }, t("archive.cancel")),
    games: el("div", { class: "archive-games" }),
  };
  const hint = el("p", { class: "hint archive-hint" }, t("archive.hint"));
  a.parts = parts;
  const node = el("section", { class: "archive", tabindex: "-1", data: { file: entry.name } },
    el("header", {}, el("h3", { class: "file-name" }, entry.name), " ", parts.badge),
    el("p", { class: "archive-progress" }, parts.bar, " ", parts.text, " ", parts.cancel),
    parts.counts, parts.problem, hint, parts.games);
  for (const report of a.shown) parts.games.append(gameNode(report, false));
  updateArchive(entry);
  return node;
}

function countRows(rows) {
  const c = { games: 0, verified: 0, mismatch: 0, error: 0, checked: 0 };
  for (const r of rows) {
    c.games++;
    c[r.status]++;
    c.checked += r.checked;
  }
  return c;
}

// One Intl.NumberFormat per precision (toLocaleString with options builds a new one each call).
const numberFormats = new Map();
const fmt = (n, digits = 0) => {
  if (!numberFormats.has(digits)) {
    numberFormats.set(digits, new Intl.NumberFormat(undefined, { maximumFractionDigits: digits }));
  }
  return numberFormats.get(digits).format(Number(n));
};

function updateArchive(entry) {
  const a = entry.archive;
  const { parts } = a;
  const node = entry.node;
  const c = countRows(entry.rows);
  const verdict = a.finished ? aggregate(entry.rows.map((r) => r.status), !a.cancelled && !a.failed) : null;
  if (verdict) {
    node.dataset.verdict = verdict;
    delete node.dataset.state;
  } else {
    node.dataset.state = "running";
  }
  parts.badge.replaceChildren(verdictBadge(verdict || "pending"));
  parts.bar.max = Math.max(1, a.total);
  parts.bar.value = a.done;
  parts.text.textContent = t("archive.progress", { done: fmt(a.done), total: fmt(a.total), rate: fmt(a.rate) });
  parts.counts.textContent = t("archive.counts", { games: fmt(c.games), verified: fmt(c.verified),
    mismatch: fmt(c.mismatch), error: fmt(c.error) });
  parts.cancel.hidden = a.finished;
  // One row named as the archive itself: the file as a whole could not be read.
  const whole = entry.rows.length === 1 && entry.rows[0].path === entry.name ? entry.rows[0].first_problem : "";
  const stopped = a.cancelled ? t("archive.stopped", { done: fmt(a.done), total: fmt(a.total) }) : "";
  const empty = a.finished && !a.failed && !entry.rows.length ? t("archive.empty") : "";
  parts.problem.textContent = [whole, a.failed, stopped, empty].filter(Boolean).join(" ");
}

// Draw one game of an archive (its kept detail, or checked again on demand).
async function openGame(entry, row) {
  const shown = entry.node.querySelector(`[data-i="${row.i}"]`);
  if (shown) {
    focusNode(shown);
    return;
  }
  let report = entry.archive.details.get(row.i);
  if (!report) {
    const waiting = el("p", { class: "hint", role: "status" }, t("archive.opening"));
    entry.archive.parts.games.prepend(waiting);
    try {
      report = await request("archive_game", { name: entry.name, file: entry.file, index: row.i });
    } catch (err) {
      report = errorReport(row.path, err);
    } finally {
      waiting.remove();
    }
    report.i = row.i;
  }
  showGame(entry, report, { focus: true, expanded: true });
}

function gameNode(report, expanded) {
  const node = renderReport(report, { expanded });
  node.dataset.i = String(report.i);
  return node;
}

function showGame(entry, report, { focus, expanded }) {
  const a = entry.archive;
  const cap = Math.max(MAX_OPENED, SMALL_ARCHIVE);
  const rest = a.shown.filter((r) => r.i !== report.i);
  a.shown = focus ? [report, ...rest].slice(0, cap) : [...rest, report].slice(-cap);
  const node = gameNode(report, expanded);
  const old = a.parts.games.querySelector(`[data-i="${report.i}"]`);
  if (old) old.replaceWith(node);
  else if (focus) a.parts.games.prepend(node);
  else a.parts.games.append(node);
  const keep = new Set(a.shown.map((r) => String(r.i)));
  for (const child of [...a.parts.games.children]) if (child.dataset.i != null && !keep.has(child.dataset.i)) child.remove();
  if (focus) focusNode(node);
}

// --- the summary table, a page at a time --------------------------------------------

function allRows() {
  const out = [];
  for (const entry of state.entries) {
    if (entry.rows) for (const row of entry.rows) out.push({ row, entry });
    if (!entry.rows || (entry.archive && !entry.archive.finished && !entry.rows.length)) {
      out.push({ row: { path: entry.name, status: "pending", round_count: "", checked: "", first_problem: "" }, entry });
    }
  }
  return out;
}

let batchQueued = false;
function scheduleBatch() {
  if (batchQueued) return;
  batchQueued = true;
  requestAnimationFrame(() => {
    batchQueued = false;
    showBatch();
  });
}

function showBatch() {
  let total = 0, done = 0;
  for (const entry of state.entries) {
    if (entry.archive) {
      total += Math.max(1, entry.archive.total);
      done += entry.archive.finished ? Math.max(1, entry.archive.total) : entry.archive.done;
    } else {
      total++;
      if (entry.rows) done++;
    }
  }
  const bar = $("batch-progress");
  bar.max = Math.max(1, total);
  bar.value = done;
  $("batch-text").textContent = t("batch.progress", { done, total });
  const rows = allRows();
  const counts = { files: 0, verified: 0, mismatch: 0, error: 0, checked: 0 };
  for (const { row } of rows) {
    if (row.status === "pending") continue;
    counts.files++;
    counts[row.status]++;
    counts.checked += row.checked;
  }
  const seconds = ((state.finished ?? performance.now()) - (state.started ?? 0)) / 1000;
  const rate = counts.files && seconds > 0 ? ` · ${t("batch.rate", { rate: fmt(counts.files / seconds) })}` : "";
  $("batch-summary").textContent = counts.files ? t("batch.summary", counts) + rate : "";
  showPage(rows);
}

function showPage(rows) {
  const problemsOnly = $("row-filter").value === "problems";
  const shown = problemsOnly ? rows.filter(({ row }) => row.status === "mismatch" || row.status === "error") : rows;
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  state.page = Math.max(0, Math.min(state.page, pages - 1));
  const body = clear($("summary").tBodies[0]);
  for (const { row, entry } of shown.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE)) {
    const inArchive = entry.archive && row.i != null;
    body.append(el("tr", { data: { row: row.path, status: row.status, archive: inArchive ? entry.name : null } },
      el("th", { scope: "row" }, el("button", { type: "button", class: "link",
        on: { click: () => (inArchive ? openGame(entry, row) : focusResult(row.path)) } }, row.path)),
      el("td", {}, verdictBadge(row.status)),
      el("td", {}, String(row.round_count)),
      el("td", {}, String(row.checked)),
      el("td", { class: "problem" }, row.first_problem || "")));
  }
  $("page-text").textContent = t("pager.page", { page: state.page + 1, pages, rows: fmt(shown.length) });
  $("page-first").disabled = $("page-prev").disabled = state.page === 0;
  $("page-next").disabled = $("page-last").disabled = state.page >= pages - 1;
  $("pager").hidden = pages <= 1;
}

function turnPage(to) {
  state.page = to === "first" ? 0 : to === "last" ? Infinity : state.page + to;
  showBatch();
}

function focusResult(path) {
  const target = [...document.querySelectorAll("#results [data-file]")]
    .find((n) => n.dataset.file === path);
  if (target) focusNode(target);
}

function focusNode(target) {
  target.scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
}

function collectReports() {
  state.reports = state.entries.flatMap((e) => (e.archive ? [] : e.reports || []));
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

// Logs in the CLI's report shape (per-round detail stays in the page); archive
// games as their compact rows (pywall.api.ROW_FIELDS without "i").
function exportable() {
  return state.entries.flatMap((e) => {
    if (e.archive) return e.rows.map(({ i, ...row }) => row);
    return (e.reports || []).map((r) => ({ ...r, rounds: r.rounds.map(({ wall, events, hands, ...rest }) => rest) }));
  });
}

async function exportAs(format) {
  const rows = allRows().map(({ row }) => row).filter((r) => r.status !== "pending");
  if (!rows.length) {
    $("batch-summary").textContent = t("export.none");
    return;
  }
  if (format === "json") {
    const files = exportable();
    const summary = { files: files.length, verified: 0, mismatch: 0, error: 0, checked: 0 };
    for (const r of files) {
      summary[r.status]++;
      summary.checked += r.checked;
    }
    download("pywall-report.json", "application/json", JSON.stringify({ schema: 1, files, summary }, null, 1));
  } else {
    const csv = await request("rows_csv", { rows });
    download("pywall-report.csv", "text/csv", csv);
  }
}

function clearResults() {
  const running = state.entries.filter((e) => (e.archive ? !e.archive.finished : !e.reports)); // work under way stays
  state.entries = running;
  clear($("results")).append(...running.map((e) => e.node));
  state.page = 0;
  state.started = running.length ? state.started : null;
  state.finished = null;
  collectReports();
  showBatch();
  $("batch").hidden = running.length === 0;
}

// --- language ---------------------------------------------------------------------

function initLanguage() {
  initLanguageSelect($("lang"), redraw);
}

function redraw() {
  translatePage();
  redrawPanels();
  showStatus();
  for (const entry of state.entries) {
    if (!entry.reports && !entry.archive) continue;
    const fresh = entry.archive ? archiveNode(entry) : resultNode(entry);
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
  $("row-filter").addEventListener("change", () => { state.page = 0; showBatch(); });
  $("page-first").addEventListener("click", () => turnPage("first"));
  $("page-prev").addEventListener("click", () => turnPage(-1));
  $("page-next").addEventListener("click", () => turnPage(1));
  $("page-last").addEventListener("click", () => turnPage("last"));
  for (const id of ["seed-url", "seed-embed"]) $(id).addEventListener("focus", (e) => e.target.select());
  initDrop();
  window.addEventListener("hashchange", fromFragment);
  fromFragment();
}

init();
