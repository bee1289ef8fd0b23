// The batch: every file given to the page, in order, as entries (the store's `batch`);
// the progress line, the summary and the results table, one page of rows at a time (the
// store's `table`: the page and the filter a person chose). Each entry is drawn by the
// module that made it (files.mjs, archives.mjs) through its own methods:
//   {name, node, rows: compact rows from Python or null while pending, reports (a log's
//    file reports) or archive (an archive's run), draw() -> node, refresh() (with the
//    table), openRow(row), drop()}

import { rateText } from "../words/batch-i18n.mjs";
import { language, number, t, tn } from "../words/i18n.mjs";
import { get, subscribe, update } from "../kit/store.mjs";
import { verdictBadge } from "../verdict/render.mjs";
import { clear, el, keepFolds } from "../kit/dom.mjs";
import { problemText } from "../verdict/findings.mjs";

const $ = (id) => document.getElementById(id);
const PAGE_SIZE = 100;
const REDRAW_MS = 250; // while answers stream in, the page is drawn again four times a second

// The batch's state (store.mjs: {entries, started, finished, workers}).
export const batchState = () => get("batch");

export function addEntry(entry) {
  $("batch").hidden = false;
  $("results").append(entry.node);
  const { entries, started } = get("batch");
  update("batch", { entries: [...entries, entry], started: started ?? performance.now() });
  return entry;
}

// A worker of the pool verified one of the batch's logs.
export function countWorker(worker) {
  const { workers } = get("batch");
  if (!workers.includes(worker)) update("batch", { workers: [...workers, worker] });
}

// Draw an entry again (its answer came, or the language changed), its folds as a person left them.
export function redrawEntry(entry) {
  const fresh = entry.draw();
  keepFolds(entry.node, fresh);
  entry.node.replaceWith(fresh);
  entry.node = fresh;
}

// An answered entry is drawn at once, unless another was drawn less than REDRAW_MS ago
// and more answers are on their way: then with the table, so that a batch's answers
// streaming in from several workers are laid out a few times a second, not once each.
// The last answer awaited (`last`) draws every answer still waiting, the table and the
// counts at once: a batch's end is not left for the next redraw (the results and the
// table it ends with agree the moment it ends). then(): after it is drawn.
let entryDrawn = -Infinity;
export function drawAnswer(entry, then, last = false) {
  entry.drawPending = then;
  if (last) {
    showBatch();
    return;
  }
  if (performance.now() - entryDrawn >= REDRAW_MS) drawPending(entry);
  scheduleBatch();
}

function drawPending(entry) {
  const then = entry.drawPending;
  entry.drawPending = null;
  redrawEntry(entry);
  entryDrawn = performance.now();
  then();
}

export function finished() {
  update("batch", { finished: performance.now() });
}

// A group's verdict: mismatch if any game mismatched (what an auditor looks for),
// else error if any could not be read (or the run was stopped before the end),
// else verified.
export function aggregate(statuses, complete = true) {
  const has = new Set(statuses);
  if (has.has("mismatch")) return "mismatch";
  if (has.has("error") || !complete || !has.size) return "error";
  return "verified";
}

// A request Python could not answer, as a report (a log it could not read is Python's report).
export function failedReport(path, err) {
  return { path, status: "error", checked: 0, game: null, rounds: [],
    findings: [{ code: err.code || "error", severity: "error", round: null, message: err.message, data: {},
      category: "input" }] };
}

export function countRows(rows) {
  const c = { games: 0, verified: 0, mismatch: 0, error: 0, checked: 0 };
  for (const r of rows) {
    c.games++;
    c[r.status]++;
    c.checked += r.checked;
  }
  return c;
}

const DETAIL = new Set(["wall", "events", "hands", "layout", "dora_indicators", "starting"]);

// A report as the CLI prints it: its rounds without their per-round detail (but `keep`).
export function withoutDetail(report, keep = []) {
  const drop = (round) => Object.fromEntries(Object.entries(round).filter(([k]) => !DETAIL.has(k) || keep.includes(k)));
  return { ...report, rounds: (report.rounds || []).map(drop) };
}

// What the audit is given: the logs' reports (with the starting hands Python put in
// them, without the walls), and the archive runs Python still holds.
export function auditSources() {
  const reports = get("batch").entries.flatMap((e) => (e.archive ? [] : e.reports || []))
    .map((r) => withoutDetail(r, ["starting"]));
  const runs = get("batch").entries.filter((e) => e.archive && e.archive.finished && e.archive.open)
    .map((e) => e.archive.run);
  return { reports, runs };
}

// Every row of the batch (pending entries as one pending row each), with its entry.
export function allRows() {
  const out = [];
  for (const entry of get("batch").entries) {
    if (entry.rows) for (const row of entry.rows) out.push({ row, entry });
    if (!entry.rows || (entry.archive && !entry.archive.finished && !entry.rows.length)) {
      out.push({ row: { path: entry.name, status: "pending", round_count: "", checked: "", first_problem: "" }, entry });
    }
  }
  return out;
}

// Answers stream in (a chunk of an archive, a log of a batch): the table and counts are
// drawn again at most every REDRAW_MS, in an animation frame. A person's action draws at once.
let queued = false;
let drawn = 0;
export function scheduleBatch() {
  if (queued) return;
  queued = true;
  setTimeout(() => requestAnimationFrame(() => {
    queued = false;
    showBatch();
  }), Math.max(0, drawn + REDRAW_MS - performance.now()));
}

export function showBatch() {
  drawn = performance.now();
  const batch = get("batch");
  let total = 0, done = 0, stopped = false;
  for (const entry of batch.entries) {
    if (entry.drawPending) drawPending(entry);
    if (entry.refresh) entry.refresh(); // an archive's progress and counts
    if (entry.archive) {
      // a stopped run counts what it checked, never its whole size: the bar is not full
      const a = entry.archive;
      stopped ||= a.cancelled;
      total += Math.max(1, a.total);
      done += a.finished && !a.cancelled ? Math.max(1, a.total) : a.done;
    } else {
      total++;
      if (entry.rows) done++;
    }
  }
  const bar = $("batch-progress");
  bar.max = Math.max(1, total);
  bar.value = done;
  const running = batch.entries.some((e) => (e.archive ? !e.archive.finished : !e.rows));
  const words = stopped && !running ? "batch.progressStopped" : "batch.progress";
  $("batch-text").textContent = words === "batch.progress" ? tn(words, total, { done: number(done), total: number(total) })
    : t(words, { done: number(done), total: number(total) });
  const rows = allRows();
  const counts = { files: 0, verified: 0, mismatch: 0, error: 0, checked: 0 };
  for (const { row } of rows) {
    if (row.status === "pending") continue;
    counts.files++;
    counts[row.status]++;
    counts.checked += row.checked;
  }
  const seconds = ((batch.finished ?? performance.now()) - (batch.started ?? 0)) / 1000;
  // a rate says something of two logs or more ("11 logs per second" for one file does not)
  const rate = counts.files > 1 && seconds > 0 ? ` · ${rateText(counts.files / seconds)}` : "";
  const workers = batch.workers.length > 1 ? ` · ${t("pool.workers", { n: batch.workers.length })}` : "";
  const shown = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, number(v)]));
  $("batch-summary").textContent = counts.files ? tn("batch.summary", counts.files, shown) + rate + workers : "";
  $("batch-summary").dataset.workers = String(batch.workers.length);
  showPage(rows);
  // the audit's button says how many verified games it would test (audit.mjs)
  document.dispatchEvent(new CustomEvent("pywall:counts", { detail: { ...counts, running } }));
}

// A row's first problem in the reader's words, from its code and data (on an English page,
// Python's message stays as the cell's title when the words differ; never on ja or zh).
function problemCell(row) {
  const english = row.first_problem || "";
  const words = row.first_problem_data ? problemText(row.first_problem_data) : english;
  const data = { label: t("batch.problem"), ...(row.first_problem_code ? { code: row.first_problem_code } : {}) };
  const title = language() === "en" && words !== english ? english : null;
  return el("td", { class: "problem", data, title }, words);
}

// The page a person turned to, within the pages there are (a page past the last, once
// rows went, is kept as the last: the store's `table` is set to it, drawing nothing new).
function showPage(rows) {
  const { problemsOnly, page: asked } = get("table");
  const shown = problemsOnly ? rows.filter(({ row }) => row.status === "mismatch" || row.status === "error") : rows;
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const page = Math.max(0, Math.min(asked, pages - 1));
  update("table", { page });
  const slice = shown.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  if (!samePage(slice)) drawPage(slice);
  $("page-text").textContent = t("pager.page", { page: page + 1, pages, rows: number(shown.length) });
  $("page-first").disabled = $("page-prev").disabled = page === 0;
  $("page-next").disabled = $("page-last").disabled = page >= pages - 1;
  $("pager").hidden = pages <= 1;
}

// The rows drawn last (a row object stays the same object once answered; a pending row
// is made anew each time): while an archive fills later pages, this one is not redrawn.
let lastPage = { rows: [], lang: null };
function samePage(slice) {
  const same = lastPage.lang === language() && lastPage.rows.length === slice.length
    && slice.every(({ row }, k) => lastPage.rows[k] === row
      || (row.status === "pending" && lastPage.rows[k].status === "pending" && lastPage.rows[k].path === row.path));
  if (!same) lastPage = { rows: slice.map(({ row }) => row), lang: language() };
  return same;
}

// The table's body holds the slice's rows in order; a row's line drawn before (same row
// object, same language) is kept as it is, so that as answers stream in only the rows
// that changed are drawn and laid out again.
// (A pending row is made anew at each draw: its line is kept by its entry.)
let rowLines = { lang: null, lines: new WeakMap() };
function drawPage(slice) {
  if (rowLines.lang !== language()) rowLines = { lang: language(), lines: new WeakMap() };
  const lines = slice.map(({ row, entry }) => {
    const key = row.status === "pending" ? entry : row;
    let line = rowLines.lines.get(key);
    if (!line || (line.dataset.status === "pending") !== (row.status === "pending")) {
      line = rowLine(row, entry);
      rowLines.lines.set(key, line);
    }
    return line;
  });
  const body = $("summary").tBodies[0];
  lines.forEach((line, k) => {
    if (body.children[k] !== line) body.insertBefore(line, body.children[k] || null);
  });
  while (body.children.length > lines.length) body.lastElementChild.remove();
}

function rowLine(row, entry) {
  const inArchive = entry.archive && row.i != null;
  return el("tr", { data: { row: row.path, status: row.status, archive: inArchive ? entry.name : null } },
    el("th", { scope: "row" }, el("button", { type: "button", class: "link",
      on: { click: () => (inArchive ? entry.openRow(row) : focusResult(row.path)) } }, row.path)),
    el("td", {}, verdictBadge(row.status)),
    el("td", { data: { label: t("batch.rounds") } }, String(row.round_count)),
    el("td", { data: { label: t("batch.checked") } }, String(row.checked)),
    problemCell(row));
}

// A person's choices of the table (drawn by subscription, before their event returns).
export function turnPage(to) {
  const { page } = get("table");
  update("table", { page: to === "first" ? 0 : to === "last" ? Infinity : page + to });
}

export function filterRows(problemsOnly) {
  update("table", { page: 0, problemsOnly });
}

export function focusResult(path) {
  const target = [...document.querySelectorAll("#results [data-file]")].find((n) => n.dataset.file === path);
  if (target) focusNode(target);
}

export function focusNode(target) {
  target.scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
}

// Drop every answered entry (work under way stays); each entry lets go of what it holds.
export function clearResults() {
  const batch = get("batch");
  const running = batch.entries.filter((e) => (e.archive ? !e.archive.finished : !e.rows));
  for (const entry of batch.entries) if (!running.includes(entry) && entry.drop) entry.drop();
  clear($("results")).append(...running.map((e) => e.node));
  update("batch", { entries: running, started: running.length ? batch.started : null, finished: null,
    workers: running.length ? batch.workers : [] });
  update("table", { page: 0 });
  showBatch(); // a person's action, drawn at once: before the audit hears that the batch was cleared
  $("batch").hidden = running.length === 0;
  // what was drawn from the batch (the audit) goes with it: it would describe games no longer here
  document.dispatchEvent(new CustomEvent("pywall:cleared"));
}

// After a language change: the table and counts at once, and every answered entry drawn
// again in document order: the first FIRST_DRAWN (more than a screen shows) in the change's
// own task, the rest SLICE_MS of drawing at a time, so that a batch of hundreds of games
// never stalls the page for the whole batch; `#results[data-redrawing]` until all are
// drawn. A newer change, or an entry dropped meanwhile, ends or skips the old work.
const FIRST_DRAWN = 40;
const SLICE_MS = 50;
let redrawing = null;
export function redrawBatch() {
  showBatch();
  const queue = get("batch").entries.filter((e) => e.rows || e.archive);
  const token = redrawing = {};
  let first = FIRST_DRAWN;
  const step = () => {
    if (redrawing !== token) return;
    const kept = new Set(get("batch").entries);
    const until = performance.now() + SLICE_MS;
    while (queue.length && (first-- > 0 || performance.now() < until)) {
      const entry = queue.shift();
      if (kept.has(entry)) redrawEntry(entry);
    }
    if (queue.length) setTimeout(step, 0);
    else delete $("results").dataset.redrawing;
  };
  $("results").dataset.redrawing = "";
  step();
}

// What the batch's part of the page draws, by subscription: a new language redraws it
// all; a person's choice of page or filter draws the table at once; the batch's own
// changes (an entry added, an answer's time) with the streaming answers, at most every
// REDRAW_MS (scheduleBatch).
subscribe(["batch", "table", "language"], (changed) => {
  if (changed.has("language")) redrawBatch();
  else if (changed.has("table")) showBatch();
  else scheduleBatch();
});
