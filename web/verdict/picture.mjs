// "Download as SVG" and "as PNG" under every drawn wall, for wikis that take images but
// not iframes. The picture is drawn in Python (pywall.pictures.picture, from the same tile art as
// the page's tiles) by the worker's `wall_svg` request, with this page's words; the PNG
// is that SVG drawn on a canvas here, at twice its size.

import "../words/reading-i18n.mjs";
import { roundLabel, t } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";
import { dateText } from "./finding-words.mjs";

const PNG_SCALE = 2;
// The round's fields the picture reads (a report's round carries more).
const ROUND_FIELDS = ["index", "wall", "layout", "dice", "dealer", "events"];

function words() {
  const out = {
    dice: t("wall.dice"), hands: t("wall.hands"), live: t("wall.live"), dead: t("wall.dead"),
    dora: t("wall.dora"), ura: t("wall.ura"), rinshan: t("wall.rinshan"), dealer: t("wall.dealer"),
    log: t("wall.log"), mismatch: t("wall.mismatchLegend"), not_drawn: t("wall.notDrawn"),
    credit: t("picture.credit"), game: t("picture.caption.game"), date: t("picture.caption.date"),
    round: t("picture.caption.round"), seed: t("picture.caption.seed"), digest: t("picture.caption.digest"),
  };
  for (let w = 0; w < 4; w++) out[`wind${w}`] = t(`wind.${w}`);
  return out;
}

function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

async function pngOf(svg) {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth * PNG_SCALE;
    canvas.height = img.naturalHeight * PNG_SCALE;
    const g = canvas.getContext("2d");
    g.scale(PNG_SCALE, PNG_SCALE);
    g.drawImage(img, 0, 0);
    return await new Promise((resolve, reject) => canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("the browser made no PNG"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

// Which game a picture shows, so that a picture posted on a wiki can be traced back: a
// log's round gives its game's id, date, round and seed (Tenhou) or the round's wall
// digest (a record that reveals its wall); a wall from a seed alone, its round and seed.
function captionOf(round, { game = null, seed = null }) {
  const out = {};
  if (game) {
    const id = game.log_id || game.game_id;
    if (id) out.game = id;
    if (game.date) out.date = dateText(game.date);
    if (round.label) out.round = roundLabel(round.label);
    if (game.seed) out.seed = game.seed;
    const digest = (round.hashes || []).find((h) => h.covers !== "salt" && h.stated);
    if (digest) out.digest = `${digest.name} ${digest.stated}`;
  } else if (round.index != null) out.round = String(round.index + 1);
  if (seed) out.seed = seed;
  return out;
}

// The render hook (render.mjs `picture`): the two buttons for one drawn wall; `game` (a
// log's round) or `seed` (a wall from a seed) name it in the picture's caption.
// request: the page's way to ask the worker (session.request, or the embed's rpc).
export function pictureTools(request) {
  return (round, { names = [], red = true, title = "", file = "wall", labels = {}, game = null, seed = null }) => {
    const status = el("span", { class: "picture-status", role: "status" });
    const slim = Object.fromEntries(ROUND_FIELDS.filter((k) => round[k] != null).map((k) => [k, round[k]]));
    const download = async (kind, button) => {
      button.disabled = true;
      status.textContent = t("picture.making");
      try {
        const { svg } = await request("wall_svg", { round: slim, names, red, title,
          labels: { ...words(), ...labels }, caption: captionOf(round, { game, seed }) });
        save(kind === "svg" ? new Blob([svg], { type: "image/svg+xml" }) : await pngOf(svg), `${file}.${kind}`);
        status.textContent = "";
      } catch (err) {
        status.textContent = t("picture.failed", { message: err.message });
      } finally {
        button.disabled = false;
      }
    };
    const button = (kind) => el("button", { type: "button", class: "link", data: { picture: kind },
      on: { click: (e) => download(kind, e.currentTarget) } }, t(`picture.${kind}`));
    return el("p", { class: "picture-tools", title: t("picture.hint") },
      button("svg"), " · ", button("png"), " ", status);
  };
}
