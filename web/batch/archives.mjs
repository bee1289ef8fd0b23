// Archives in the batch: a zip of logs or a phoenix-logs database. The pool's workers
// check it a chunk of games at a time (archive-run.mjs); the page keeps one compact row
// per game (from Python), plus wall detail for the first games and first mismatches
// only. Any other game is checked again from the chosen File (kept as a reference, not
// as bytes) when a person opens it. A run that ends normally keeps its audit tally in
// the first worker (its games count in the audit) until the page drops the archive.

import { number, t } from "../words/i18n.mjs";
import { renderReport, verdictBadge } from "../verdict/render.mjs";
import { el } from "../kit/dom.mjs";
import { pool, request } from "../workers/session.mjs";
import { runArchive } from "./archive-run.mjs";
import { problemText } from "../verdict/findings.mjs";
import {
  aggregate, countRows, failedReport, finished, focusNode, redrawEntry, scheduleBatch, showBatch,
} from "./batch.mjs";

const SMALL_ARCHIVE = 20; // an archive this small shows every game like a file
const MAX_OPENED = 10; // games of an archive drawn at once
let runs = 0;

export function startArchive(entry, file) {
  const run = `run-${++runs}`;
  entry.file = file;
  entry.rows = [];
  entry.archive = { run, total: 0, done: 0, rate: 0, workers: 0, finished: false, cancelled: false,
    failed: null, open: false, survey: null, details: new Map(), shown: [], started: performance.now() };
  entry.draw = () => archiveNode(entry);
  entry.refresh = () => refreshArchive(entry);
  entry.openRow = (row) => openGame(entry, row);
  entry.drop = () => dropArchive(entry);
  redrawEntry(entry);
  const handle = runArchive({ pool, run, name: entry.name, file,
    onOpen: ({ total, survey }) => Object.assign(entry.archive, { total, survey }),
    onRows: (chunk) => archiveRows(entry, chunk),
    onProgress: (p) => archiveProgress(entry, p) });
  entry.archive.stop = handle.stop;
  let memory = [];
  let profile = null;
  let ended = null;
  handle.done
    .then((end) => {
      Object.assign(entry.archive, { cancelled: end.cancelled, done: end.done, total: end.total,
        open: !end.cancelled && !end.failed, failed: end.failed ? end.failed.message : null });
      ({ memory, ended, profile } = end);
    })
    .finally(() => {
      entry.archive.finished = true;
      finished();
      // read by benchmarks/bench_web_archive.py: the time to the last game, the workers' memory
      performance.measure("pywall:archive", { start: entry.archive.started, end: ended ?? performance.now(),
        detail: { name: entry.name, games: entry.rows.length, workers: entry.archive.workers, memory, profile } });
      updateArchive(entry);
      showBatch();
    });
  showBatch();
}

// The page no longer shows this archive: Python lets go of its run and its File.
function dropArchive(entry) {
  if (!entry.archive.open) return;
  entry.archive.open = false;
  request("archive_close", { run: entry.archive.run }).catch(() => {});
}

// A chunk's games, in the archive's order.
function archiveRows(entry, { rows, details }) {
  const a = entry.archive;
  for (const row of rows) entry.rows.push(row);
  for (const report of details) a.details.set(report.i, report);
  if (a.total <= SMALL_ARCHIVE) {
    for (const report of details) {
      if (report.path !== entry.name) showGame(entry, report, { focus: false, expanded: false });
    }
  }
}

// Drawn with the table (batch.mjs: a few times a second), not at every chunk.
function archiveProgress(entry, p) {
  Object.assign(entry.archive, { total: p.total, done: p.done, rate: p.rate, workers: p.workers, dirty: true });
  scheduleBatch();
}

function refreshArchive(entry) {
  if (!entry.archive.dirty) return;
  entry.archive.dirty = false;
  updateArchive(entry);
}

function archiveNode(entry) {
  const a = entry.archive;
  const parts = {
    badge: el("span", { class: "archive-badge" }),
    bar: el("progress", { max: "1", value: "0", "aria-label": entry.name }),
    text: el("span", { class: "archive-progress-text", "aria-live": "polite" }),
    counts: el("p", { class: "archive-counts" }),
    problem: el("p", { class: "archive-problem error-text" }),
    cancel: el("button", { type: "button", class: "archive-cancel", on: { click: () => a.stop() } },
      t("archive.cancel")),
    games: el("div", { class: "archive-games" }),
  };
  const hint = el("p", { class: "hint archive-hint" }, t("archive.hint"));
  a.parts = parts;
  const node = el("section", { class: "archive", tabindex: "-1", data: { file: entry.name } },
    el("header", {}, el("h3", { class: "file-name" }, entry.name), " ", parts.badge),
    el("p", { class: "archive-progress" }, parts.bar, " ", parts.text, " ", parts.cancel),
    parts.counts, parts.problem, hint, parts.games);
  for (const report of a.shown) parts.games.append(gameNode(report, false));
  updateArchive(entry, node);
  return node;
}

function updateArchive(entry, node = entry.node) {
  const a = entry.archive;
  const { parts } = a;
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
  const workers = a.workers > 1 ? ` · ${t("pool.workers", { n: a.workers })}` : "";
  // while the first worker counts the games, no "0 of 0": the counting is said
  parts.text.textContent = a.cancelled ? t("archive.progressStopped", { done: number(a.done), total: number(a.total) })
    : !a.total && !a.finished ? t("archive.counting")
      : t("archive.progress", { done: number(a.done), total: number(a.total), rate: number(a.rate) }) + workers;
  node.dataset.workers = String(a.workers);
  parts.counts.textContent = t("archive.counts", { games: number(c.games), verified: number(c.verified),
    mismatch: number(c.mismatch), error: number(c.error) });
  parts.cancel.hidden = a.finished;
  // One row named as the archive itself: the file as a whole could not be read.
  const lone = entry.rows.length === 1 && entry.rows[0].path === entry.name ? entry.rows[0] : null;
  // An empty zip is said in the page's words (Python: empty_archive), like an archive that ends at once.
  const emptyZip = lone && lone.first_problem_code === "empty_archive";
  const whole = lone && !emptyZip ? problemText(lone.first_problem_data) || lone.first_problem : "";
  parts.problem.title = lone && whole !== lone.first_problem ? lone.first_problem : "";
  const stopped = a.cancelled ? t("archive.stopped", { done: number(a.done), total: number(a.total) }) : "";
  const empty = emptyZip || (a.finished && !a.failed && !entry.rows.length) ? t("archive.empty") : "";
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
      const survey = entry.archive.survey ? { survey: entry.archive.survey } : {};
      report = await request("archive_game", { name: entry.name, file: entry.file, index: row.i, ...survey });
    } catch (err) {
      report = failedReport(row.path, err);
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
