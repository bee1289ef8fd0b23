// The page's wiring: DOM and events only. Python runs in a pool of workers (worker.mjs,
// pool.mjs; session.mjs talks to them, pool-setting.mjs sizes the pool); files.mjs and
// archives.mjs fill the batch (batch.mjs), seeds.mjs shows walls from a seed,
// export.mjs downloads the batch, panels.mjs adds the tools; links.mjs and handoff.mjs
// take game links and the bookmarklet's logs, samples.mjs the sample games, meaning.mjs
// says what a verdict means, picture.mjs offers every drawn wall as a picture, records.mjs
// says where each platform's records come from.

import "./help-i18n.mjs";
import { initLanguageSelect, translatePage } from "./i18n.mjs";
import { showStatus, startSession } from "./session.mjs";
import { auditSources, clearResults, redrawBatch, showBatch, turnPage, batch } from "./batch.mjs";
import { initFiles } from "./files.mjs";
import { initSeeds, redrawSeeds } from "./seeds.mjs";
import { initExport } from "./export.mjs";
import { initPanels, redrawPanels } from "./panels.mjs";
import { pool, request } from "./session.mjs";
import { initPoolSetting, redrawPoolSetting } from "./pool-setting.mjs";
import { setRenderHooks } from "./render.mjs";
import { redrawLinks, roundLinks, yourSeat } from "./links.mjs";
import { initHandoff, redrawHandoff } from "./handoff.mjs";
import { initSamples } from "./samples.mjs";
import { verdictMeaning } from "./meaning.mjs";
import { pictureTools } from "./picture.mjs";
import { initRecords, redrawRecords } from "./records.mjs";

const $ = (id) => document.getElementById(id);

// Precaching the site for offline use (about 45 MB, once, on the first visit) competes
// with Python for the computer: it starts once Python is up and the workers have had
// nothing to do for IDLE_MS. (Registered the moment Python was up, it made the first
// 50-log batch after start-up about 1.6 times slower.)
const IDLE_MS = 1000;
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const idle = pool.idleFor();
  if (idle < IDLE_MS) {
    setTimeout(registerServiceWorker, IDLE_MS - idle + 50);
    return;
  }
  navigator.serviceWorker.register("./sw.js").catch((err) => console.warn("service worker:", err));
}

function redraw() {
  translatePage();
  redrawPanels();
  showStatus();
  redrawBatch();
  redrawSeeds();
  redrawPoolSetting();
  redrawLinks();
  redrawHandoff();
  redrawRecords();
}

function initTable() {
  $("clear").addEventListener("click", clearResults);
  $("row-filter").addEventListener("change", () => { batch.page = 0; showBatch(); });
  $("page-first").addEventListener("click", () => turnPage("first"));
  $("page-prev").addEventListener("click", () => turnPage(-1));
  $("page-next").addEventListener("click", () => turnPage(1));
  $("page-last").addEventListener("click", () => turnPage("last"));
}

function init() {
  initLanguageSelect($("lang"), redraw);
  startSession({ onReady: registerServiceWorker });
  initPanels({ request, sources: auditSources });
  setRenderHooks({ meaning: verdictMeaning, roundLinks, you: (report) => yourSeat(report),
    picture: pictureTools(request) });
  showStatus();
  initFiles();
  initTable();
  initExport();
  initSeeds();
  initPoolSetting(() => {
    pool.trim();
    showStatus();
  });
  initSamples();
  initHandoff();
  initRecords();
}

init();
