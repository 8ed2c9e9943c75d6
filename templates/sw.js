// The app's service worker (companion/views/pwa.py): the app's own static files from a
// cache, and an offline page of its own when a page can't be reached. It never stores
// nor answers anything else: no page of a match (it would be a stale table), no form
// posted, no live poll. Those go to the network as if there were no worker.
"use strict";

var PREFIX = "nomercy-";
var CACHE = PREFIX + {{ version|tojson }};  // the content of static/ and templates/
var OFFLINE = {{ offline|tojson }};
var STATIC = {{ static|tojson }};
var CACHED = new Set(STATIC);

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      // Checked with the server (a 304 when the page has just loaded a file: no second
      // download), never taken unchecked from the HTTP cache: the files this version names.
      return cache.addAll(STATIC.concat([OFFLINE]).map(function (url) {
        return new Request(url, { cache: "no-cache" });
      }));
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf(PREFIX) === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () {
      // Pages start loading while the worker wakes up, not after.
      if (self.registration.navigationPreload) {
        return self.registration.navigationPreload.enable();
      }
    }).then(function () { return self.clients.claim(); })
  );
});

function fromCache(request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || fetch(request);
    });
  });
}

function page(event) {
  return Promise.resolve(event.preloadResponse).then(function (preloaded) {
    return preloaded || fetch(event.request);
  }).catch(function () {
    // No answer at all (an answer with an error status is shown as it is).
    return caches.open(CACHE).then(function (cache) {
      return cache.match(OFFLINE, { ignoreVary: true });
    }).then(function (offline) { return offline || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (CACHED.has(url.pathname + url.search)) {  // each with its digest (?v=)
    event.respondWith(fromCache(request));
  }
});
