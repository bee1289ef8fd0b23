// The page's wiring: DOM and events only. Python runs in a pool of workers (worker.mjs,
// pool.mjs; session.mjs talks to them, pool-setting.mjs sizes the pool); files.mjs and
// archives.mjs fill the batch (batch.mjs), seeds.mjs shows walls from a seed,
// export.mjs downloads the batch, panels.mjs adds the tools; links.mjs and handoff.mjs
// take game links and the bookmarklet's logs, game-list.mjs lists of games (fetched through
// the bookmarklet's tenhou.net page), samples.mjs the sample games, meaning.mjs
// says what a verdict means, picture.mjs offers every drawn wall as a picture, records.mjs
// says where each platform's records come from.

import "../words/help-i18n.mjs";
import { initLanguageSelect } from "../words/i18n.mjs";
import { showStatus, startSession } from "../workers/session.mjs";
import { auditSources, clearResults, filterRows, turnPage } from "../batch/batch.mjs";
import { addFiles, addLog, initFiles, setListView } from "../inputs/files.mjs";
import { initGameList, showGameList } from "../inputs/game-list.mjs";
import { initSeeds } from "../inputs/seeds.mjs";
import { initExport } from "../batch/export.mjs";
import { initPanels } from "./panels.mjs";
import { pool, request } from "../workers/session.mjs";
import { initPoolSetting } from "../workers/pool-setting.mjs";
import { setRenderHooks } from "../verdict/render.mjs";
import { roundLinks, yourSeat } from "../inputs/links.mjs";
import { initHandoff } from "../inputs/handoff.mjs";
import { initSamples } from "../inputs/samples.mjs";
import { verdictMeaning } from "../verdict/meaning.mjs";
import { pictureTools } from "../verdict/picture.mjs";
import { initRecords } from "../inputs/records.mjs";
import { get, store } from "../kit/store.mjs";

const $ = (id) => document.getElementById(id);

// Precaching the site for offline use (on the first visit: the few files the page has not
// fetched yet, and a check of the others; the packed runtime it reuses) competes
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

function initTable() {
  // the filter a reload's restored <select> shows is the one the table starts with
  store.init("table", { ...store.get("table"), problemsOnly: $("row-filter").value === "problems" });
  $("clear").addEventListener("click", clearResults);
  $("row-filter").addEventListener("change", (e) => filterRows(e.target.value === "problems"));
  $("page-first").addEventListener("click", () => turnPage("first"));
  $("page-prev").addEventListener("click", () => turnPage(-1));
  $("page-next").addEventListener("click", () => turnPage(1));
  $("page-last").addEventListener("click", () => turnPage("last"));
}

// The players the batch's game links name by their seat (Tenhou's tw: a pasted link a log
// was chosen for, or the bookmarklet's): the audit's "you", when they name one player.
function linkedPlayers() {
  return get("batch").entries.flatMap((e) => (e.archive ? [] : e.reports || [])
    .map((r) => r.game?.players?.[yourSeat(r, e.link)])).filter((name) => typeof name === "string" && name);
}

// The door on the first screen for the question players come with ("are my games fair?"):
// to the inputs that bring many games (a zip, files, a pasted list of games), with a word
// of what to do; the verify path stays as it is.
function initAuditDoor() {
  const door = document.querySelector("[data-action=audit-many]");
  if (!door) return;
  door.addEventListener("click", () => {
    $("audit-many-how").hidden = false;
    document.querySelector("main > section.input .choose").scrollIntoView({ block: "start" });
    $("paste").focus({ preventScroll: true });
  });
}

function init() {
  initLanguageSelect($("lang")); // each part redraws itself on a change (it subscribes to the store's language)
  startSession({ onReady: registerServiceWorker });
  initPanels({ request, sources: auditSources, linked: linkedPlayers });
  setRenderHooks({ meaning: (report) => verdictMeaning(report, request), roundLinks,
    you: (report) => yourSeat(report), picture: pictureTools(request) });
  showStatus();
  initFiles();
  initGameList({ addFiles, addLog });
  setListView(showGameList);
  initTable();
  initExport();
  initSeeds();
  initPoolSetting(() => pool.trim()); // the status line follows the pool's counts (store.mjs)
  initSamples();
  initHandoff();
  initRecords();
  initAuditDoor();
}

init();
