// One click from Tenhou's viewer: a bookmarklet (a link a person drags to the bookmarks
// bar). Clicked on a tenhou.net game page, it opens this page with the viewer's address
// in the fragment (#viewer=URL) and waits. This page asks Python which game that address
// names (links.mjs), then asks the page that opened it for that game's record ("want",
// by postMessage, addressed to tenhou.net only); the bookmarklet fetches it from its own
// site, which the browser allows, and posts it back ("log"). The log is checked like a
// dropped file. A message is accepted only from the window that opened this page, only
// from tenhou.net, only when a log was asked for and only for that game, only as text or
// bytes within pywall's size limit; anything else is refused with a sentence saying why.

import "./help-i18n.mjs";
import { t } from "./i18n.mjs";
import { subscribe } from "./store.mjs";
import { request } from "./session.mjs";
import { addLog } from "./files.mjs";
import { linkOf, remember, showLink } from "./links.mjs";

const $ = (id) => document.getElementById(id);
export const TENHOU_ORIGINS = ["https://tenhou.net", "http://tenhou.net"];
const MAX_SHOWN = 300; // characters of a sender's text put in a message

let asked = null; // the link whose log was asked for, until it comes
let note = null; // {key, params}: the last word about a handoff, drawn again on a language change

// The bookmarklet itself. It runs on the Tenhou page, never here: it is turned into
// source text (bookmarkletHref) with this page's address as `pywall`.
function bookmarklet(pywall) {
  const origin = new URL(pywall).origin;
  const w = window.open(`${pywall}#viewer=${encodeURIComponent(location.href)}`, "_blank");
  addEventListener("message", async (e) => {
    const m = e.data;
    if (!w || e.source !== w || e.origin !== origin || !m || m.pywall !== "want") return;
    let reply = { pywall: "log", id: m.id };
    try {
      const url = new URL(String(m.url));
      if (url.hostname !== location.hostname) throw new Error(`not on ${location.hostname}`);
      const response = await fetch(url.pathname + url.search);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      reply.bytes = await response.arrayBuffer();
    } catch (err) {
      reply = { ...reply, error: String((err && err.message) || err) };
    }
    w.postMessage(reply, origin, reply.bytes ? [reply.bytes] : []);
  });
}

export function bookmarkletHref(pywall) {
  return `javascript:${encodeURIComponent(`(${bookmarklet})(${JSON.stringify(pywall)})`)}`;
}

function say(key, params = {}) {
  note = key ? { key, params } : null;
  $("handoff-msg").textContent = note ? t(key, params) : "";
}

export function redrawHandoff() {
  if (note) say(note.key, note.params);
}

// #viewer=URL, taken out of the address (a reload must not ask again); null when absent.
function viewerFromAddress() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const viewer = params.get("viewer");
  if (viewer == null) return null;
  params.delete("viewer");
  const rest = params.toString();
  history.replaceState(null, "", rest ? `#${rest}` : location.pathname + location.search);
  return viewer.slice(0, 4096);
}

async function start(viewer) {
  let link = null;
  try {
    link = await linkOf(viewer);
  } catch (err) {
    say("call.failed", { message: err.message });
    return;
  }
  if (!link || link.platform !== "tenhou") {
    say("handoff.noGame", { url: viewer.slice(0, MAX_SHOWN) });
    return;
  }
  remember(link);
  if (!window.opener) {
    showLink(link); // opened without the bookmarklet's page: say where the record is
    return;
  }
  asked = link;
  say("handoff.waiting", { id: link.game_id });
  // Only a tenhou.net opener receives this (postMessage drops it for any other origin).
  for (const origin of TENHOU_ORIGINS) {
    window.opener.postMessage({ pywall: "want", id: link.game_id, url: link.record_url }, origin);
  }
}

// Why a message from the opener is not the log asked for; null when it is.
function problemWith(data) {
  if (!asked) return "notAsked";
  if (!data || typeof data !== "object" || data.pywall !== "log") return "shape";
  if (data.id !== asked.game_id) return "id";
  if (typeof data.error === "string" || typeof data.text === "string") return null;
  if (data.bytes instanceof ArrayBuffer || ArrayBuffer.isView(data.bytes)) return null;
  return "type";
}

async function received(event) {
  if (event.source === window) return; // this page's own messages (and extensions' in it)
  const origin = String(event.origin).slice(0, MAX_SHOWN);
  if (!TENHOU_ORIGINS.includes(event.origin) || !window.opener || event.source !== window.opener) {
    say("handoff.wrongOrigin", { origin: origin || "?" });
    return;
  }
  const problem = problemWith(event.data);
  if (problem) {
    say("handoff.badMessage", { why: t(`handoff.why.${problem}`) });
    return;
  }
  const link = asked;
  asked = null;
  const data = event.data;
  if (typeof data.error === "string") {
    say("handoff.failed", { id: link.game_id, message: data.error.slice(0, MAX_SHOWN) });
    showLink(link);
    return;
  }
  say(null);
  addLog(link.record_url.replace(/^\w+:\/\//, ""), await logPayload(data), link);
}

// The log as the worker takes it, or refused when it is over the size pywall reads
// (checked here, so that a hostile size is never copied into Python).
async function logPayload(data) {
  const { limits } = await request("info", {});
  const max = limits.log_bytes;
  const size = typeof data.text === "string" ? data.text.length : data.bytes.byteLength;
  let bytes = null;
  if (size <= max) {
    bytes = typeof data.text === "string" ? new TextEncoder().encode(data.text)
      : new Uint8Array(data.bytes.buffer || data.bytes, data.bytes.byteOffset || 0, size).slice();
  }
  if (!bytes || bytes.byteLength > max) {
    const shown = bytes ? bytes.byteLength : size;
    return { refused: { code: "too_large", message: t("handoff.tooLarge", { size: shown.toLocaleString(), max: max.toLocaleString() }) } };
  }
  return { bytes };
}

export function initHandoff() {
  subscribe(["language"], redrawHandoff);
  const link = $("bookmarklet");
  link.href = bookmarkletHref(new URL("./", location.href).href);
  link.addEventListener("click", (e) => {
    e.preventDefault(); // this page's policy would block it anyway: it is for the bookmarks bar
    say("handoff.clicked");
  });
  window.addEventListener("message", (e) => { received(e); });
  const viewer = viewerFromAddress();
  if (viewer != null) start(viewer);
}
