// Service worker: after the first visit every file of the site comes from this
// cache, so the page works with the network off. build.py fills in the list of
// files and the site's VERSION, a digest of their content; every cache this version uses
// is pywall-VERSION (the page's worker keeps the packed runtime files there too:
// runtime-files.mjs, which reads the same VERSION from pyodide/packed.mjs), and an
// activated version deletes every other pywall- cache.
// The packed runtime files are named by their content and checked by their SHA-256 before
// they are kept: the install takes each from this version's cache or an older one (they
// stay valid across versions) when it is the site's file, else from the network.
// A new version takes over open pages at once (skipWaiting, clients.claim); a page that was
// under an older one then reloads (rpc.mjs), so no page runs two versions.

const VERSION = "__PYWALL_VERSION__";
const PRECACHE = [/*__PYWALL_PRECACHE__*/];
const PACKED = [/*__PYWALL_PACKED__*/];
const SHA256 = {/*__PYWALL_SHA256__*/}; // packed URL -> {packed, plain}: runtime-files.mjs's check
const CACHE = `pywall-${VERSION}`;
const absolute = (url) => new URL(url, self.location.href).href;

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
async function genuine(url, response) {
  if (!response || !response.ok) return null;
  const bytes = await response.clone().arrayBuffer();
  const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
  const want = SHA256[url];
  return want && (digest === want.packed || digest === want.plain) ? response : null;
}

// A packed file for this version's cache: a checked copy from any cache, else the network
// (asked twice, the second time past the HTTP cache); an install that cannot have it fails,
// and the browser tries it again later.
async function packedFile(cache, url) {
  if (await genuine(url, await cache.match(absolute(url)))) return;
  for (const key of await caches.keys()) {
    if (!key.startsWith("pywall-")) continue;
    const copy = await genuine(url, await (await caches.open(key)).match(absolute(url)));
    if (copy) return cache.put(absolute(url), copy);
  }
  for (const mode of ["no-cache", "reload"]) {
    const fetched = await genuine(url, await fetch(new Request(absolute(url), { cache: mode })));
    if (fetched) return cache.put(absolute(url), fetched);
  }
  throw new Error(`${url}: the network answered with another file`);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "no-cache" })));
    for (const url of PACKED) await packedFile(cache, url);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("pywall-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// A file of the precache list missing from the cache (a page whose start failed deletes
// what it used: session.mjs) is put back when the network gives it; the packed files are
// put back by the worker, which checks them.
const precached = new Set(PRECACHE.map(absolute));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    try {
      const response = await fetch(request);
      const url = new URL(request.url);
      url.search = "";
      if (response.ok && precached.has(url.href)) cache.put(url.href, response.clone()).catch(() => {});
      return response;
    } catch (err) {
      if (request.mode === "navigate") {
        const page = await cache.match("./");
        if (page) return page;
      }
      throw err;
    }
  })());
});
