// Each round's starting hands, under an opened round's wall: one `hands` request with
// the report's round (Python reads the dealer, the dora indicator and the first draw
// from the round's layout), each seat's hand with its shanten and effective tiles.

import { t } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";
import { tileEl } from "../verdict/tile.mjs";
import { ask, failure } from "./panel-kit.mjs";
import { efficiencyView, formsText, shantenText } from "../verdict/hand-view.mjs";

export function roundHands(round, game, red) {
  if (!round.wall || !round.hands || !round.layout) return null;
  const box = el("section", { class: "start-hands", data: { panel: "start-hands" }, "aria-live": "polite" },
    el("h5", {}, t("hands.heading")), el("p", { class: "hint" }, t("call.working")));
  const { wall, hands, dealer, layout } = round;
  ask("hands", { round: { wall, hands, dealer, layout } })
    .then((data) => {
      box.lastChild.replaceWith(el("div", {}, doraIndicator(data.dora_indicator, red),
        data.seats.map((s) => seatHand(s, game, red)),
        el("p", { class: "hint" }, t("hands.visibleNote"))));
      box.dataset.state = "done";
      box.dataset.dealer = String(data.dealer);
    })
    .catch((err) => box.lastChild.replaceWith(failure(err)));
  return box;
}

function doraIndicator(id, red) {
  return el("p", { class: "dora-indicator", data: { tile: String(id) } },
    `${t("hands.doraIndicator")}: `, tileEl(id, { red, small: true, extraLabel: t("hands.doraIndicator") }));
}

function seatHand(s, game, red) {
  const name = game && game.players[s.seat] ? game.players[s.seat] : t("wall.seat", { n: s.seat + 1 });
  const tiles = s.ids.map((id) => tileEl(id, { red, small: true, extraLabel: id === s.draw ? t("hands.dealerNote") : "" }));
  return el("div", { class: "seat-hand", data: { seat: String(s.seat), shanten: String(s.shanten.minimum),
    dealer: s.dealer ? "true" : null } },
    el("p", { class: "seat-head" }, el("span", { class: `who seat${s.seat}`, "aria-hidden": "true" }, String(s.seat + 1)), " ",
      el("bdi", {}, name), s.dealer ? ` (${t("wall.dealer")}; ${t("hands.dealerNote")})` : "", " — ",
      el("b", { class: "shanten" }, shantenText(s.shanten.minimum)),
      el("span", { class: "forms" }, ` (${formsText(s.shanten)})`)),
    el("span", { class: "tiles" }, tiles), efficiencyView(s));
}
