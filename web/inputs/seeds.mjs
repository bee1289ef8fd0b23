// The seed-only view: a Tenhou seed (pasted, or from #tenhou=SEED&round=N&players=3)
// shows its walls round by round, with a link and an embed snippet for the same wall.

import { t, withLanguage } from "../words/i18n.mjs";
import { subscribe } from "../kit/store.mjs";
import { renderWall, seedErrorContent } from "../verdict/render.mjs";
import { clear, el } from "../kit/dom.mjs";
import { fragmentFor, parseFragment } from "../kit/fragment.mjs";
import { request } from "../workers/session.mjs";

const $ = (id) => document.getElementById(id);
let shown = null; // {seed, round, players, walls}

// reveal: bring the wall into view once drawn (a link opened at a round).
export async function showSeed({ seed, round, players }, updateUrl, reveal = false) {
  $("seed-view").hidden = false;
  $("seed-players").value = String(players);
  $("seed-round").value = String(round);
  const cached = shown;
  shown = { seed, round, players, reveal,
    walls: cached && cached.seed === seed && cached.players === players ? cached.walls : null };
  const fragment = withLanguage(fragmentFor(seed, round, players));
  if (updateUrl) history.replaceState(null, "", fragment);
  const base = location.href.split("#")[0];
  $("seed-url").value = base + fragment;
  const embedUrl = new URL("embed.html", base).href + fragment;
  $("seed-embed").value = `<iframe src="${embedUrl}" width="760" height="640" title="pywall wall" loading="lazy"></iframe>`;
  $("seed-error").replaceChildren();
  let walls = shown.walls;
  if (!walls || walls.rounds.length < round) {
    try {
      walls = await request("walls", { seed, rounds: Math.max(round, 8), players });
    } catch (err) {
      walls = { error: { code: err.code, message: err.message } };
    }
    if (shown.seed !== seed || shown.players !== players) return; // superseded
    shown.walls = walls.error ? null : walls;
  }
  if (shown.round !== round) return;
  drawSeedWall(walls);
}

function drawSeedWall(walls) {
  const target = clear($("seed-wall"));
  if (!walls || walls.error) {
    $("seed-error").replaceChildren(...seedErrorContent(walls ? walls.error : { message: "?" }));
    return;
  }
  const round = walls.rounds[shown.round - 1];
  const players = t(shown.players === 3 ? "seed.p3" : "seed.p4");
  target.append(el("h3", {}, `${t("seed.round")} ${shown.round}`),
    renderWall(round, { withLog: false, red: true, heading: 4, picture: {
      title: `${t("seed.round")} ${shown.round} · ${players}`,
      file: `pywall-wall-round-${shown.round}-${shown.players}p`, seed: shown.seed } }));
  if (shown.reveal) target.scrollIntoView({ block: "start" });
  shown.reveal = false;
}

function seedStep(delta) {
  if (!shown) return;
  showSeed({ ...shown, round: Math.max(1, Math.min(64, shown.round + delta)) }, true);
}

function fromFragment() {
  const frag = parseFragment(location.hash);
  if (frag.seed) showSeed(frag, false, true);
}

export function redrawSeeds() {
  if (shown && shown.walls) drawSeedWall(shown.walls);
}

export function initSeeds() {
  subscribe(["language"], redrawSeeds);
  $("seed-prev").addEventListener("click", () => seedStep(-1));
  $("seed-next").addEventListener("click", () => seedStep(1));
  $("seed-round").addEventListener("change", (e) => {
    if (shown) showSeed({ ...shown, round: Math.max(1, Math.min(64, parseInt(e.target.value, 10) || 1)) }, true);
  });
  $("seed-players").addEventListener("change", (e) => {
    if (shown) showSeed({ ...shown, players: e.target.value === "3" ? 3 : 4 }, true);
  });
  for (const id of ["seed-url", "seed-embed"]) $(id).addEventListener("focus", (e) => e.target.select());
  window.addEventListener("hashchange", fromFragment);
  fromFragment();
}
