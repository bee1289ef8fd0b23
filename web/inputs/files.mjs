// Logs into the batch: files chosen, dropped on the page or pasted, the sample games
// and logs the bookmarklet brings (`addLog`). Each is one `verify` job for the pool's
// first free worker (several files: several workers), answered with its file reports
// (a zip sent whole: one per member) and their compact rows; each is drawn in its
// place, in the order the files were given. For a File the worker first asks Python
// what it is (`sniff`), and an archive (zip, SQLite) comes back as {archive: kind} and
// goes to archives.mjs.
// Pasted text that names a game (a link or a log id) shows where its record is (links.mjs);
// text that names several (a list, a page) shows them all (game-list.mjs, through `setListView`).

import { t } from "../words/i18n.mjs";
import { pendingEl, renderReport, verdictBadge } from "../verdict/render.mjs";
import { el } from "../kit/dom.mjs";
import { looksLikeSeed } from "../kit/fragment.mjs";
import { spread } from "../workers/session.mjs";
import { limits } from "../workers/pool.mjs";
import { addEntry, aggregate, batchState, countWorker, drawAnswer, failedReport, finished } from "../batch/batch.mjs";
import { startArchive } from "../batch/archives.mjs";
import { showSeed } from "./seeds.mjs";
import { initLinks, linkOf, showLink, yourSeat } from "./links.mjs";
import { initAnswer, showAnswer } from "./answer.mjs";

const $ = (id) => document.getElementById(id);
let pasted = 0;
let listView = null; // (text, {least}) -> Promise<boolean>: game-list.mjs's view of a list of games

export function setListView(view) {
  listView = view;
}

// link: the game link the files were chosen for (its tw marks "you"), or null.
// The first of them is brought into view (chosen, dropped, pasted or handed over, on a
// phone the results are far below the file chooser).
export function addFiles(files, link = null) {
  const entries = Array.from(files || []).map((file) => {
    const entry = newEntry(file.name, link);
    verifyEntry(entry, { file }, file);
    return entry;
  });
  if (entries.length) bringIntoView(entries[0]);
}

// Brought into view at once, and again when its answer is drawn: the batch's progress, table
// and summary above it are drawn meanwhile and push it down (on a phone, below the fold).
// Not again once the person scrolled, tapped, clicked or pressed a key.
function bringIntoView(entry) {
  entry.node.scrollIntoView({ block: "start" });
  const moved = new AbortController();
  for (const type of ["wheel", "touchstart", "mousedown", "keydown"]) {
    addEventListener(type, () => moved.abort(), { passive: true, signal: moved.signal });
  }
  entry.reveal = () => {
    if (!moved.signal.aborted) entry.node.scrollIntoView({ block: "start" });
    moved.abort();
    entry.reveal = null;
  };
}

function newEntry(name, link = null) {
  const entry = { name, link, node: pendingEl(name), reports: null, rows: null, archive: null };
  entry.draw = () => resultNode(entry);
  return addEntry(entry);
}

// One log given as bytes (or text) rather than a File: {bytes} or {text} is verified;
// {refused: {code, message}} is a log the page would not send to Python (too large).
// Brought into view like chosen files (`scroll`: false for the second of two samples).
export function addLog(name, payload, link = null, { scroll = true } = {}) {
  const entry = newEntry(name, link);
  verifyEntry(entry, payload);
  if (scroll) bringIntoView(entry);
  return entry;
}

let inFlight = 0; // logs sent and not yet answered

// One `verify` request; a File the worker finds to be an archive (its reply is
// {archive: kind}) becomes an archive run instead.
function verifyEntry(entry, { refused, ...payload }, file = null) {
  const started = performance.now();
  inFlight++;
  let worker = null; // the pool's worker that took it
  const job = { onWorker: (index) => { worker = index; } };
  const ask = { name: entry.name, reply_limit: limits.replyChars, ...payload };
  (refused ? Promise.reject(refused) : spread("verify", ask, job))
    .then((text) => {
      const reply = JSON.parse(text);
      if (reply.archive && file) {
        startArchive(entry, file);
        return false;
      }
      entry.reports = reply.files;
      entry.rows = reply.rows;
      return true;
    })
    .catch((err) => {
      const report = failedReport(entry.name, err);
      const [finding] = report.findings;
      entry.reports = [report];
      entry.rows = [{ path: entry.name, status: "error", round_count: 0, checked: 0, errors: 1,
        first_problem: err.message, first_problem_code: finding.code,
        first_problem_data: { finding, round: null, game: null } }];
      return true;
    })
    .then((checked) => {
      inFlight--;
      if (!checked) return;
      if (worker != null) countWorker(worker);
      finished();
      // the last answer awaited (a lone log, say) is drawn at once, whenever the one before was
      drawAnswer(entry, () => {
        performance.measure("pywall:verify", { start: started, end: performance.now(), detail: entry.name });
        // after the table and the counts of the same draw (a frame later)
        if (entry.reveal) requestAnimationFrame(() => entry.reveal?.());
      }, inFlight === 0);
    });
}

// A log gives one article (a .zip sent as a log: a section of articles).
function resultNode(entry) {
  const reports = entry.reports;
  const expanded = batchState().entries.length === 1 && reports.length === 1;
  const you = (r) => yourSeat(r, entry.link);
  if (reports.length === 1 && reports[0].path === entry.name) {
    return renderReport(reports[0], { expanded, you: you(reports[0]) });
  }
  const worst = aggregate(reports.map((r) => r.status));
  return el("section", { class: "archive", tabindex: "-1", data: { file: entry.name, verdict: worst } },
    el("header", {}, el("h3", { class: "file-name" }, entry.name), " ", verdictBadge(worst)),
    reports.map((r) => renderReport(r, { expanded: false, you: you(r) })));
}

// Short pasted text with no markup may be a game link or a log id (Python says).
const MAX_LINK_TEXT = 4096;

// Pasted text: a seed shows its walls, a game link or id where its record is;
// anything else is verified as a log.
async function pasteGo() {
  const text = $("paste").value;
  $("paste-msg").textContent = "";
  if (!text.trim()) {
    $("paste-msg").textContent = t("paste.empty");
    return;
  }
  showAnswer(null); // the last text's answer goes at once: it is not this text's
  if (looksLikeSeed(text)) {
    showSeed({ seed: text.trim(), round: 1, players: 4 }, true);
    return;
  }
  const json = /^[\s\ufeff]*[{[]/.test(text); // a Mahjong Soul or Riichi City record
  // a list, or a copied page (markup: no single link is read from it) naming even one game
  const least = text.includes("<") ? 1 : 2;
  if (listView && !json && !text.includes("<mjloggm") && (await listView(text, { least }))) return;
  const link = text.length <= MAX_LINK_TEXT && !text.includes("<") ? await linkOf(text).catch(() => null) : null;
  showLink(link);
  if (link) return;
  pasted++;
  addLog(`pasted-${pasted}.${json ? "json" : "xml"}`, { text });
}

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

export function initFiles() {
  $("files").addEventListener("change", (e) => {
    addFiles(e.target.files);
    e.target.value = "";
  });
  $("paste-go").addEventListener("click", pasteGo);
  initAnswer();
  initLinks({ addFiles });
  initDrop();
}
