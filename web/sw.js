// Service worker: the app's own files from the cache (offline after the first load). Only
// same-origin GETs of the app are cached; the device's WebSocket (/link) never passes here.
const VERSION = 'deskpet-web-2';
const FILES = ['./', 'index.html', 'app.css', 'manifest.webmanifest', 'icons/icon-192.png', 'icons/icon-512.png',
  'icons/maskable-512.png', 'js/app.mjs', 'js/pages.mjs', 'js/art.mjs', 'js/artdata.mjs', 'js/chunk.mjs', 'js/client.mjs',
  'js/circles.mjs', 'js/controller.mjs', 'js/frame.mjs', 'js/hmac.mjs', 'js/queue.mjs', 'js/store.mjs', 'js/transport-ble.mjs',
  'js/transport-ws.mjs', 'js/view.mjs'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(VERSION).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.endsWith('/link')) return;
  // The cached copy at once; a fresh one fetched meanwhile for the next load (stale while revalidate).
  e.respondWith(caches.open(VERSION).then(async (c) => {
    const hit = await c.match(e.request, { ignoreSearch: true });
    const fresh = fetch(e.request).then((r) => { if (r.ok) c.put(e.request, r.clone()); return r; });
    if (hit) { fresh.catch(() => {}); return hit; }
    return fresh.catch(async () => (await c.match('index.html')) || Response.error());
  }));
});
