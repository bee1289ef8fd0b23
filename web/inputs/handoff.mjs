// One click from Tenhou's viewer: a bookmarklet (a link a person drags to the bookmarks
// bar). Clicked on a tenhou.net game page, it opens this page with the viewer's address
// in the fragment (#viewer=URL) and waits. This page asks Python which game that address
// names (links.mjs), then asks the page that opened it for that game's record ("want",
// by postMessage, addressed to tenhou.net only); the bookmarklet fetches it from its own
// site, which the browser allows, and posts it back ("log"). The log is checked like a
// dropped file. A message is accepted only from the window that opened this page, only
// from tenhou.net, only when a log was asked for and only for that game, only as text or
// bytes within pywall's size limit; anything else is refused with a sentence saying why.
// The same exchange serves a list of games (game-list.mjs): `askLog` asks for one log at a
// time, and when the page the bookmarklet ran on names no single game, pywall asks it for
// its text ("list"), in which Python finds the games that page lists.

import "../words/help-i18n.mjs";
import { number, t } from "../words/i18n.mjs";
import { subscribe } from "../kit/store.mjs";
import { request } from "../workers/session.mjs";
import { addLog } from "./files.mjs";
import { linkOf, remember, showLink } from "./links.mjs";

const $ = (id) => document.getElementById(id);
export const TENHOU_ORIGINS = ["https://tenhou.net", "http://tenhou.net"];
const MAX_SHOWN = 300; // characters of a sender's text put in a message

export const ANSWER_MS = 30000; // how long an answer from tenhou.net is awaited
const LIST_MS = 5000; // a bookmarklet from before lists never answers "list"
export const MAX_LIST_CHARS = 4 * 1024 * 1024; // as Python's game_lists.MAX_LIST_CHARS

let pending = null; // what was asked of the opener, until it comes: {kind, link, resolve}
let opened = false; // this page was opened by the bookmarklet on a tenhou.net page
let note = null; // {key, params}: the last word about a handoff, drawn again on a language change
let pageList = null; // (text) -> Promise<boolean>: game-list.mjs shows the games a page lists

// The address the bookmarklet fetches a log from, for the address pywall asked for (`raw`)
// on the page it runs on (`here`: its location): only a page of tenhou.net itself, fetched
// from the page's own origin. Its host is compared exactly (no other host, no user or port,
// no www.evil-tenhou.net), and a path that begins with "//" (or "/\", read as "//"), which a
// browser would resolve to another host, is refused. Throws an Error saying why.
export function tenhouAddress(raw, here) {
  const TENHOU = "tenhou.net";
  let url;
  try {
    url = new URL(String(raw));
  } catch {
    throw new Error("not an address");
  }
  if (here.hostname !== TENHOU) throw new Error(`this page is on ${here.hostname}, not on ${TENHOU}`);
  if (!["http:", "https:"].includes(url.protocol) || url.host !== TENHOU || url.username || url.password) {
    throw new Error(`not an address on ${TENHOU}`);
  }
  if (!url.pathname.startsWith("/") || url.pathname.startsWith("//")) throw new Error(`not a page of ${TENHOU}`);
  const address = new URL(`${here.origin}${url.pathname}${url.search}`);
  if (address.origin !== here.origin) throw new Error(`not a page of ${TENHOU}`);
  return address.href;
}

// The bookmarklet itself. It runs on the Tenhou page, never here: it is turned into
// source text (bookmarkletHref) with this page's address as `pywall` and tenhouAddress
// as `address`.
function bookmarklet(pywall, address) {
  const origin = new URL(pywall).origin;
  const w = window.open(`${pywall}#viewer=${encodeURIComponent(location.href)}`, "_blank");
  addEventListener("message", async (e) => {
    const m = e.data;
    if (!w || e.source !== w || e.origin !== origin || !m) return;
    if (m.pywall === "list") { // the games this page lists: its text and its links' addresses
      const links = Array.from(document.links, (a) => a.href).join("\n");
      w.postMessage({ pywall: "list", text: `${document.body.innerText}\n${links}`.slice(0, 4194304) }, origin);
      return;
    }
    if (m.pywall !== "want") return;
    let reply = { pywall: "log", id: m.id };
    try {
      const response = await fetch(address(m.url, location));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      reply.bytes = await response.arrayBuffer();
    } catch (err) {
      reply = { ...reply, error: String((err && err.message) || err) };
    }
    w.postMessage(reply, origin, reply.bytes ? [reply.bytes] : []);
  });
}

export function bookmarkletHref(pywall) {
  return `javascript:${encodeURIComponent(`(${bookmarklet})(${JSON.stringify(pywall)}, ${tenhouAddress})`)}`;
}

function say(key, params = {}) {
  note = key ? { key, params } : null;
  // {go}: the paste box's button, in the language the words are drawn in
  $("handoff-msg").textContent = note ? t(key, { go: t("paste.verify"), ...params }) : "";
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
  const tenhou = link && link.platform === "tenhou";
  if (!window.opener) {
    if (tenhou) showLink(link); // opened without the bookmarklet's page: say where the record is
    else say("handoff.noGame", { url: viewer.slice(0, MAX_SHOWN) });
    return;
  }
  opened = true;
  if (!tenhou) {
    await askPageList(viewer);
    return;
  }
  remember(link);
  say("handoff.waiting", { id: link.game_id });
  const answer = await askLog(link);
  if (answer.stopped) return;
  if (answer.timeout) {
    say("handoff.noAnswer", { id: link.game_id, s: ANSWER_MS / 1000 });
    showLink(link);
  } else if (typeof answer.data.error === "string") {
    say("handoff.failed", { id: link.game_id, message: answer.data.error.slice(0, MAX_SHOWN) });
    showLink(link);
  } else {
    say(null);
    addLog(logName(link), await logPayload(answer.data), link);
  }
}

// The page the bookmarklet ran on names no single game: it may list games (a log list,
// search results). Its text is asked for once; Python finds the games in it. A page that
// lists none still connects pywall to tenhou.net: a list pasted here is fetched through it,
// and the words say so (not "names no game", which told a player with a list to go away).
async function askPageList(viewer) {
  const answer = await ask({ pywall: "list" }, { kind: "list" }, LIST_MS);
  const text = answer.data ? answer.data.text : "";
  if (text.length > MAX_LIST_CHARS) {
    say("handoff.listTooLong", { size: number(text.length), max: number(MAX_LIST_CHARS) });
    return;
  }
  if (!(text && pageList && (await pageList(text)))) say("handoff.connected", { url: viewer.slice(0, MAX_SHOWN) });
}

// Whether pywall can ask a tenhou.net page for logs: it was opened by the bookmarklet there,
// and that page is still open.
export const throughTenhou = () => opened && Boolean(window.opener) && !window.opener.closed;

// game-list.mjs's view of a page's list (set once, at its start).
export function onPageList(show) {
  pageList = show;
}

// The name a log from tenhou.net has in the batch (its address without the scheme).
export const logName = (link) => link.record_url.replace(/^\w+:\/\//, "");

// Ask the opener for one game's log: {data} (the message: a log or an error), {timeout}
// or {stopped} (`stopAsking`).
export function askLog(link, timeoutMs = ANSWER_MS) {
  return ask({ pywall: "want", id: link.game_id, url: link.record_url }, { kind: "log", link }, timeoutMs);
}

export function stopAsking() {
  if (pending) pending.resolve({ stopped: true });
}

function ask(message, what, timeoutMs) {
  stopAsking();
  return new Promise((resolve) => {
    const timer = setTimeout(() => pending.resolve({ timeout: true }), timeoutMs);
    pending = { ...what, resolve: (answer) => { clearTimeout(timer); pending = null; resolve(answer); } };
    // Only a tenhou.net opener receives this (postMessage drops it for any other origin).
    for (const origin of TENHOU_ORIGINS) window.opener.postMessage(message, origin);
  });
}

// Why a message from the opener is not what was asked for; null when it is.
function problemWith(data) {
  if (!pending) return "notAsked";
  if (!data || typeof data !== "object" || data.pywall !== (pending.kind === "list" ? "list" : "log")) return "shape";
  if (pending.kind === "list") return typeof data.text === "string" ? null : "listType";
  if (data.id !== pending.link.game_id) return "id";
  if (typeof data.error === "string" || typeof data.text === "string") return null;
  if (data.bytes instanceof ArrayBuffer || ArrayBuffer.isView(data.bytes)) return null;
  return "type";
}

function received(event) {
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
  pending.resolve({ data: event.data });
}

// The log as the worker takes it, or refused when it is over the size pywall reads
// (checked here, so that a hostile size is never copied into Python).
export async function logPayload(data) {
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
    return { refused: { code: "too_large", message: t("handoff.tooLarge", { size: number(shown), max: number(max) }) } };
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
