// The sample games: a real Tenhou game (tests/data/tenhou/tenhou-python-bot/1.txt) and
// the same game with one draw changed, shipped with the site (precached like every
// file of it, so they work offline). A newcomer sees a "verified" and a "mismatch"
// before trusting either on their own log.

import "../words/help-i18n.mjs";
import { t } from "../words/i18n.mjs";
import { addLog } from "./files.mjs";

const SAMPLES = ["samples/sample-game.xml", "samples/sample-game-one-draw-changed.xml"];

async function fetchSample(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

async function loadSamples() {
  const message = document.getElementById("sample-msg");
  message.textContent = "";
  try {
    const logs = await Promise.all(SAMPLES.map(fetchSample));
    SAMPLES.forEach((path, i) => addLog(path.split("/").pop(), { bytes: logs[i] }, null, { scroll: i === 0 }));
  } catch (err) {
    message.textContent = t("sample.failed", { message: err.message || String(err) });
  }
}

export function initSamples() {
  document.getElementById("sample-go").addEventListener("click", loadSamples);
}
