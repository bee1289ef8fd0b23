// Service worker: after the first visit every file of the site comes from this
// cache, so the page works with the network off. build.py fills in the list of
// files and a version derived from their content; a new build gets a new cache
// and the old one is deleted.
// The packed runtime files (runtime-files.mjs: named by their content) live in a
// cache every version shares, where the page's worker kept them as it fetched them on
// the first visit: the precache fetches only those it does not find there.

const VERSION = "__PYWALL_VERSION__";
const PRECACHE = [/*__PYWALL_PRECACHE__*/];
const PACKED = [/*__PYWALL_PACKED__*/];
const CACHE = `pywall-${VERSION}`;
const FILES_CACHE = "pywall-files"; // runtime-files.mjs's
const absolute = (url) => new URL(url, self.location.href).href;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "no-cache" })));
    const files = await caches.open(FILES_CACHE);
    for (const url of PACKED) {
      if (!(await files.match(absolute(url)))) await files.add(absolute(url));
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("pywall-") && key !== CACHE && key !== FILES_CACHE) await caches.delete(key);
    }
    const files = await caches.open(FILES_CACHE);
    const wanted = new Set(PACKED.map(absolute));
    for (const request of await files.keys()) {
      if (!wanted.has(request.url)) await files.delete(request);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const hit = await (await caches.open(CACHE)).match(request, { ignoreSearch: true })
      || await (await caches.open(FILES_CACHE)).match(request, { ignoreSearch: true });
    if (hit) return hit;
    try {
      return await fetch(request);
    } catch (err) {
      if (request.mode === "navigate") {
        const page = await (await caches.open(CACHE)).match("./");
        if (page) return page;
      }
      throw err;
    }
  })());
});
