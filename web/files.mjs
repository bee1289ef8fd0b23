// Logs into the batch: files chosen, dropped on the page or pasted. Python says what
// each file is (`sniff`): an archive goes to archives.mjs, anything else is one
// `verify` job for the pool's first free worker (several files: several workers),
// answered with its file reports (a zip sent whole: one per member) and their compact
// rows; each is drawn in its place, in the order the files were given.

import { t } from "./i18n.mjs";
import { el, looksLikeSeed, pendingEl, renderReport, verdictBadge } from "./render.mjs";
import { request, spread } from "./session.mjs";
import { addEntry, aggregate, batch, drawAnswer, failedReport, finished } from "./batch.mjs";
import { startArchive } from "./archives.mjs";
import { showSeed } from "./seeds.mjs";

const $ = (id) => document.getElementById(id);
let pasted = 0;

export function addFiles(files) {
  for (const file of Array.from(files || [])) {
    const entry = newEntry(file.name);
    request("sniff", { file })
      .then((answer) => answer.kind, () => "record")
      .then((kind) => (kind === "record" ? verifyEntry(entry, { file }) : startArchive(entry, file)));
  }
}

function newEntry(name) {
  const entry = { name, node: pendingEl(name), reports: null, rows: null, archive: null };
  entry.draw = () => resultNode(entry);
  return addEntry(entry);
}

function verifyEntry(entry, payload) {
  const started = performance.now();
  spread("verify", { name: entry.name, ...payload }, { onWorker: (index) => batch.workers.add(index) })
    .then((text) => {
      const reply = JSON.parse(text);
      entry.reports = reply.files;
      entry.rows = reply.rows;
    })
    .catch((err) => {
      entry.reports = [failedReport(entry.name, err)];
      entry.rows = [{ path: entry.name, status: "error", round_count: 0, checked: 0, errors: 1,
        first_problem: err.message }];
    })
    .finally(() => {
      finished();
      drawAnswer(entry, () => {
        performance.measure("pywall:verify", { start: started, end: performance.now(), detail: entry.name });
      });
    });
}

// A log gives one article (a .zip sent as a log: a section of articles).
function resultNode(entry) {
  const reports = entry.reports;
  const expanded = batch.entries.length === 1 && reports.length === 1;
  if (reports.length === 1 && reports[0].path === entry.name) return renderReport(reports[0], { expanded });
  const worst = aggregate(reports.map((r) => r.status));
  return el("section", { class: "archive", tabindex: "-1", data: { file: entry.name, verdict: worst } },
    el("header", {}, el("h3", { class: "file-name" }, entry.name), " ", verdictBadge(worst)),
    reports.map((r) => renderReport(r, { expanded: false })));
}

// Pasted text: a seed shows its walls; anything else is verified as a log.
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
  pasted++;
  verifyEntry(newEntry(`pasted-${pasted}.xml`), { text });
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
  initDrop();
}
