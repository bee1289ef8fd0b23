// embed.html#tenhou=SEED&round=N[&players=3][&lang=ja]: one wall, compactly, for an iframe.

import { connect, startWorker } from "./rpc.mjs";
import { fragmentLanguage, language, setLanguage, startLanguage, t, translatePage } from "./i18n.mjs";
import { clear, el, parseFragment, renderWall } from "./render.mjs";

const $ = (id) => document.getElementById(id);
let info = null;
let failure = null;

function status() {
  const node = $("status");
  node.dataset.state = failure ? "error" : info ? "ready" : "loading";
  $("status-text").textContent = failure ? t("status.error", { message: failure })
    : info ? t("status.ready", info) : t("status.loading");
}

const rpc = connect(startWorker(), {
  onEvent(type, payload) {
    if (type === "ready") {
      info = payload;
      if ("serviceWorker" in navigator) navigator.serviceWorker.register("./sw.js").catch(() => {});
    }
    if (type === "fatal") failure = payload.message;
    status();
  },
});

async function show() {
  const frag = parseFragment(location.hash);
  const target = clear($("seed-wall"));
  $("seed-error").textContent = "";
  $("full-link").href = `index.html${location.hash}`;
  if (!frag.seed) {
    $("seed-error").textContent = t("seed.error", { message: "#tenhou=SEED&round=N" });
    return;
  }
  let walls;
  try {
    walls = await rpc.request("walls", { seed: frag.seed, rounds: frag.round, players: frag.players });
  } catch (err) {
    walls = { error: { message: err.message } };
  }
  if (walls.error) {
    $("seed-error").textContent = t("seed.error", { message: walls.error.message });
    return;
  }
  const round = walls.rounds[frag.round - 1];
  $("embed-title").textContent = `${t("seed.round")} ${frag.round} · ${t(frag.players === 3 ? "seed.p3" : "seed.p4")}`;
  target.append(renderWall(round, { withLog: false, red: true, compact: true, heading: 2 }));
}

// The fragment's lang= (a wiki's choice), else the reader's remembered or browser language.
setLanguage(startLanguage());
translatePage();
status();
window.addEventListener("hashchange", () => {
  const asked = fragmentLanguage();
  if (asked && asked !== language()) {
    setLanguage(asked);
    translatePage();
    status();
  }
  show();
});
show();
