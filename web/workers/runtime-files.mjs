// The runtime files the site ships packed (build.py writes pyodide/packed.mjs): the
// interpreter (pyodide.asm.wasm), the standard library and the start-up snapshot, each
// named by its content and gzipped when that pays, so a first visit from any static host
// (one that compresses nothing included) is small. Each is fetched once: from the cache
// the service worker shares (FILES_CACHE) when it is there, else from the network, then
// kept in that cache, where the service worker's precache and the pool's other workers
// find it; it is unpacked here, in the browser (DecompressionStream).

import { PACKED } from "../pyodide/packed.mjs";

export const FILES_CACHE = "pywall-files";
const here = (path) => new URL(path, import.meta.url).href;
const TYPES = { ".wasm": "application/wasm", ".zip": "application/zip" };

// The plain name (as Pyodide asks for it, under the site's pyodide/) of a packed file's URL, or null.
const byUrl = new Map(Object.keys(PACKED).map((name) => [here(`../pyodide/${name}`), name]));
export function packedName(input) {
  const url = typeof Request !== "undefined" && input instanceof Request ? input.url : String(input);
  return byUrl.get(url) || null; // a string or a URL (Pyodide passes a URL)
}

async function fromCache(url) {
  try {
    return (await (await caches.open(FILES_CACHE)).match(url)) || null;
  } catch {
    return null; // no Cache Storage here (a private window, an insecure origin)
  }
}

function keep(url, response) {
  try {
    caches.open(FILES_CACHE).then((cache) => cache.put(url, response)).catch(() => {});
  } catch { /* no Cache Storage: the service worker fetches it again */ }
}

// A browser too old to unpack them (before Chrome 80, Firefox 113, Safari 16.4) cannot run
// the page: the worker says so with this error, and the page in the reader's language.
export class UnpackError extends Error {}
export const canUnpack = () => typeof DecompressionStream !== "undefined";

// The body, unpacked when it is gzip (it starts 1f 8b): a host may send a .gz file with
// Content-Encoding: gzip, and the browser then hands over the bytes already unpacked.
async function unpacked(body) {
  const reader = body.getReader();
  let head = new Uint8Array(0);
  let done = false;
  while (!done && head.length < 2) {
    const chunk = await reader.read();
    done = chunk.done;
    if (chunk.value) {
      const joined = new Uint8Array(head.length + chunk.value.length);
      joined.set(head);
      joined.set(chunk.value, head.length);
      head = joined;
    }
  }
  const stream = new ReadableStream({
    start(controller) {
      if (head.length) controller.enqueue(head);
      if (done) controller.close();
    },
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  if (head[0] !== 0x1f || head[1] !== 0x8b) return stream;
  if (!canUnpack()) throw new UnpackError("no DecompressionStream");
  return stream.pipeThrough(new DecompressionStream("gzip"));
}

// A packed file by its plain name, as a Response with its plain type (null: not packed).
export async function fetchPacked(name) {
  if (!PACKED[name]) return null;
  const url = here(`../pyodide/${PACKED[name]}`);
  let response = await fromCache(url);
  if (!response) {
    response = await fetch(url);
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    keep(url, response.clone());
  }
  const type = TYPES[name.slice(name.lastIndexOf("."))] || "application/octet-stream";
  return new Response(await unpacked(response.body), { headers: { "Content-Type": type } });
}
