// The runtime files the site ships packed (build.py writes pyodide/packed.mjs): the
// interpreter (pyodide.asm.wasm), the standard library and the start-up snapshot (as its
// delta from the interpreter, without its pages of zeros: snapshotBytes), each
// named by its content and gzipped when that pays, so a first visit from any static host
// (one that compresses nothing included) is small. Each is fetched once: from the cache of
// this version of the site (pywall-VERSION, which the service worker fills too) when it
// is there, else from the network, then kept in that cache, where the service worker's
// precache and the pool's other workers find it; it is unpacked here, in the browser
// (DecompressionStream).
//
// A file is used only when its bytes are the ones build.py shipped (their SHA-256, whose
// first 16 hex digits are in the file's name), checked before it is kept and again each
// time it is read from the cache: a Wi-Fi login page or a proxy's error page answered with
// 200 is never used nor kept. A copy in the cache that does not match is deleted and the
// file fetched again; a network answer that does not match is asked for once more,
// past the browser's HTTP cache; if that one does not match either, the start fails with
// CorruptError, which the page says in words (status.corrupt).

import { PACKED, SHA256, VERSION } from "../pyodide/packed.mjs";
import { snapshotFromDelta } from "./snapshot-delta.mjs";

export const CACHE = `pywall-${VERSION}`; // the service worker's (sw.js) for this version
const here = (path) => new URL(path, import.meta.url).href;
const TYPES = { ".wasm": "application/wasm", ".zip": "application/zip" };

// The plain name (as Pyodide asks for it, under the site's pyodide/) of a packed file's URL, or null.
const byUrl = new Map(Object.keys(PACKED).map((name) => [here(`../pyodide/${name}`), name]));
export function packedName(input) {
  const url = typeof Request !== "undefined" && input instanceof Request ? input.url : String(input);
  return byUrl.get(url) || null; // a string or a URL (Pyodide passes a URL)
}

async function openCache() {
  try {
    return await caches.open(CACHE);
  } catch {
    return null; // no Cache Storage here (a private window, an insecure origin)
  }
}

// A browser too old to unpack them (before Chrome 80, Firefox 113, Safari 16.4) cannot run
// the page: the worker says so with this error, and the page in the reader's language.
export class UnpackError extends Error {}
export const canUnpack = () => typeof DecompressionStream !== "undefined";

// A runtime file that came, twice, with bytes other than the site's: `file` is its plain name.
export class CorruptError extends Error {
  constructor(file, detail) {
    super(`${file}: the network answered with another file (${detail}), twice`);
    this.file = file;
  }
}

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

// Whether `bytes` are the packed file `packed` as shipped, or its content (a host that
// sends the .gz with Content-Encoding: gzip: the browser unpacks it before the page sees
// it). Without crypto.subtle (an insecure origin, which has no Cache Storage to keep a bad
// answer either) nothing can be checked.
async function genuine(packed, bytes) {
  if (!(globalThis.crypto && crypto.subtle)) return true;
  const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
  const want = SHA256[packed];
  return Boolean(want) && (digest === want.packed || digest === want.plain);
}

// What an answer that is not the file looks like, for the message: its status and type.
const described = (response, bytes) =>
  `HTTP ${response.status}, ${response.headers.get("Content-Type") || "no type"}, ${bytes.byteLength} bytes`;

// The packed file `name`'s bytes as shipped (or unpacked by the host), checked.
async function checkedBytes(name) {
  const packed = PACKED[name];
  const url = here(`../pyodide/${packed}`);
  const cache = await openCache();
  const hit = cache && (await cache.match(url).catch(() => null));
  if (hit) {
    const bytes = await hit.arrayBuffer().catch(() => null);
    if (bytes && (await genuine(packed, bytes))) return bytes;
    console.warn(`pywall: the cached ${name} is not the site's file: deleted, fetched again`);
    await cache.delete(url).catch(() => {});
  }
  let detail = "";
  for (const mode of ["default", "reload"]) {
    const response = await fetch(url, { cache: mode });
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    if (await genuine(packed, bytes)) {
      if (cache) cache.put(url, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } })).catch(() => {});
      return bytes;
    }
    detail = described(response, bytes);
    console.warn(`pywall: ${name} came as another file (${detail})`);
  }
  throw new CorruptError(name, detail);
}

// The body, unpacked when it is gzip (it starts 1f 8b): a host may send a .gz file with
// Content-Encoding: gzip, and the browser then hands over the bytes already unpacked.
function unpacked(bytes) {
  const head = new Uint8Array(bytes, 0, Math.min(2, bytes.byteLength));
  const stream = new Response(bytes).body;
  if (head[0] !== 0x1f || head[1] !== 0x8b) return stream;
  if (!canUnpack()) throw new UnpackError("no DecompressionStream");
  return stream.pipeThrough(new DecompressionStream("gzip"));
}

// Files unpacked whole ahead (those fetchAhead was given, and the interpreter for the
// snapshot's delta), each handed over once to Pyodide.
const whole = new Map();

async function unpackedBytes(checked) {
  return new Uint8Array(await new Response(unpacked(await checked)).arrayBuffer());
}

// A packed file's content, unpacked whole (fetched and checked first, unless fetchAhead was given it).
export function unpackedWhole(name) {
  if (!whole.has(name)) {
    const bytes = unpackedBytes(checkedBytes(name));
    bytes.catch(() => {});
    whole.set(name, bytes);
  }
  return whole.get(name);
}

// Fetch and check these packed files now, and unpack each as soon as it has come (while the
// others still download, rather than when Pyodide asks for it): a promise that rejects
// (CorruptError, a network error) as soon as one cannot be had, so the start fails with
// that rather than inside Pyodide's loader, which may wait for ever on a file it could not use.
export function fetchAhead(names) {
  return Promise.all(names.filter((name) => PACKED[name]).map((name) => {
    const checked = checkedBytes(name);
    const bytes = unpackedBytes(checked);
    bytes.catch(() => {});
    whole.set(name, bytes);
    return checked;
  }));
}

// A packed file by its plain name, as a Response with its plain type (null: not packed).
export async function fetchPacked(name) {
  if (!PACKED[name]) return null;
  const type = TYPES[name.slice(name.lastIndexOf("."))] || "application/octet-stream";
  if (whole.has(name)) {
    const bytes = whole.get(name);
    whole.delete(name);
    return new Response(await bytes, { headers: { "Content-Type": type } });
  }
  return new Response(unpacked(await checkedBytes(name)), { headers: { "Content-Type": type } });
}

// The start-up snapshot: build.py ships it as its delta from the interpreter, without its
// pages of zeros (snapshot-delta.mjs gives it back). Its bytes, as Pyodide takes them.
export async function snapshotBytes() {
  const [shipped, wasm] = await Promise.all([
    fetchPacked("python-snapshot.bin").then((r) => r.arrayBuffer()),
    unpackedWhole("pyodide.asm.wasm"),
  ]);
  return snapshotFromDelta(new Uint8Array(shipped), wasm);
}
