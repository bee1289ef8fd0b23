// The page's wiring: DOM and events only. Python runs in a pool of workers (worker.mjs,
// pool.mjs; session.mjs talks to them, pool-setting.mjs sizes the pool); files.mjs and
// archives.mjs fill the batch (batch.mjs), seeds.mjs shows walls from a seed,
// export.mjs downloads the batch, panels.mjs adds the tools.

import { initLanguageSelect, translatePage } from "./i18n.mjs";
import { showStatus, startSession } from "./session.mjs";
import { auditSources, clearResults, redrawBatch, showBatch, turnPage, batch } from "./batch.mjs";
import { initFiles } from "./files.mjs";
import { initSeeds, redrawSeeds } from "./seeds.mjs";
import { initExport } from "./export.mjs";
import { initPanels, redrawPanels } from "./panels.mjs";
import { pool, request } from "./session.mjs";
import { initPoolSetting, redrawPoolSetting } from "./pool-setting.mjs";

const $ = (id) => document.getElementById(id);

// After Python is up, so that precaching the site for offline use does not
// compete with the first start.
function registerServiceWorker() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("./sw.js").catch((err) => console.warn("service worker:", err));
  }
}

function redraw() {
  translatePage();
  redrawPanels();
  showStatus();
  redrawBatch();
  redrawSeeds();
  redrawPoolSetting();
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
  showStatus();
  initFiles();
  initTable();
  initExport();
  initSeeds();
  initPoolSetting(() => {
    pool.trim();
    showStatus();
  });
}

init();
