// embed.html#tenhou=SEED&round=N[&players=3][&lang=ja]: one wall, compactly, for an iframe
// (a narrow wiki sidebar of 360×400 too): what game and round it is, the wall, the dealt
// hands, the dice and the dead wall with its dora; the versions go in the about line.

import "../words/help-i18n.mjs";
import { connect, startWorker } from "../workers/rpc.mjs";
import { fragmentLanguage, language, setLanguage, startFailure, startLanguage, t, translatePage } from "../words/i18n.mjs";
import { renderWall, seedErrorContent, setRenderHooks } from "../verdict/render.mjs";
import { clear } from "../kit/dom.mjs";
import { parseFragment } from "../kit/fragment.mjs";
import { pictureTools } from "../verdict/picture.mjs";

const $ = (id) => document.getElementById(id);
let info = null;
let failure = null;

function status() {
  const node = $("status");
  node.dataset.state = failure ? "error" : info ? "ready" : "loading";
  $("status-text").textContent = failure ? t("status.error", { message: startFailure(failure) })
    : info ? t("status.ready") : t("status.loading");
  $("about").textContent = info ? t("about.versions", info) : "";
}

let settled;
const pythonSettled = new Promise((resolve) => { settled = resolve; });
const rpc = connect(startWorker(), {
  onEvent(type, payload) {
    if (type === "ready") info = payload;
    if (type === "fatal") failure = payload; // worded in status()
    if (type === "ready" || type === "fatal") settled();
    status();
  },
});

// The seed as a reader can tell two games apart by: its start and end, the whole in the title.
function shortSeed(seed) {
  const body = seed.slice(seed.lastIndexOf(",") + 1);
  return body.length > 20 ? `${body.slice(0, 8)}…${body.slice(-8)}` : body;
}

function heading(frag) {
  const players = t(frag.players === 3 ? "seed.p3" : "seed.p4");
  $("embed-title").textContent = t("embed.title", { round: frag.round, players });
  document.title = `${$("embed-title").textContent} — pywall`;
  const game = $("embed-game");
  game.textContent = frag.seed ? t("embed.game", { seed: shortSeed(frag.seed) }) : "";
  game.title = frag.seed || "";
}

async function show() {
  const frag = parseFragment(location.hash);
  const target = clear($("seed-wall"));
  $("seed-error").replaceChildren();
  $("full-link").href = `index.html${location.hash}`;
  heading(frag);
  if (!frag.seed) {
    $("seed-error").textContent = t("seed.error", { message: "#tenhou=SEED&round=N" });
    return;
  }
  let walls;
  try {
    walls = await rpc.request("walls", { seed: frag.seed, rounds: frag.round, players: frag.players });
  } catch (err) {
    walls = { error: { code: err.code, message: err.message } };
  }
  if (walls.error) {
    $("seed-error").replaceChildren(...seedErrorContent(walls.error));
    return;
  }
  const round = walls.rounds[frag.round - 1];
  const title = $("embed-title").textContent;
  target.append(renderWall(round, { withLog: false, red: true, compact: true, heading: 2,
    picture: { title, file: `pywall-wall-round-${frag.round}-${frag.players}p`, seed: frag.seed } }));
}

setRenderHooks({ picture: pictureTools(rpc.request) });
// The fragment's lang= (a wiki's choice), else the reader's remembered or browser language.
setLanguage(startLanguage());
translatePage();
status();
// Precaching the site for offline use (on a first visit) waits until Python is up and
// the wall is drawn (or could not be): it would compete with them (see app.js).
Promise.allSettled([pythonSettled, show()]).then(() => {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("./sw.js").catch(() => {});
});
window.addEventListener("hashchange", () => {
  const asked = fragmentLanguage();
  if (asked && asked !== language()) {
    setLanguage(asked);
    translatePage();
    status();
  }
  show();
});
