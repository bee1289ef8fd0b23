// Service worker: after the first visit every file of the site comes from this
// cache, so the page works with the network off. build.py fills in the list of
// files and a version derived from their content; a new build gets a new cache
// and the old one is deleted.

const VERSION = "__PYWALL_VERSION__";
const PRECACHE = [/*__PYWALL_PRECACHE__*/];
const CACHE = `pywall-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "no-cache" })));
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

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    try {
      return await fetch(request);
    } catch (err) {
      if (request.mode === "navigate") {
        const page = await cache.match("./");
        if (page) return page;
      }
      throw err;
    }
  })());
});
