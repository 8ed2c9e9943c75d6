// The app in the phone's service worker (make standalone). It serves the build's files
// from the cache of its version (shell.js fills it on a first visit; a new version's
// worker fills its own while it waits), so the app opens with no network. Every request
// under app/ is the app's: handed to the page running the app's Python (shell.js, then
// worker.js), which answers it as the server would.
"use strict";
importScripts("build.js", "files.js", "words.js", "language.js");

var PREFIX = "standalone-"; // not the server app's own worker's prefix: neither deletes the other's
var CACHE = PREFIX + self.BUILD.version;
var SCOPE = self.registration.scope;
var APP = SCOPE + "app/";
var STATIC = APP + "static/";
var INDEX = SCOPE + "index.html";
var WAIT_SECONDS = 120; // a request the app has not answered by then gets a sentence

function url(path) { return new URL(path, SCOPE).href; }

self.addEventListener("install", function (event) {
  // A version's files, each downloaded unless the page already did (a first visit).
  // At the first install of all (no version active yet), the page that registered this
  // worker is still downloading some of them (KEPT_LAST, shell.js): left to it.
  // No skipWaiting: a new version waits, and the page takes it at its next start.
  var pageDownloads = !self.registration.active;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(self.BUILD.files.map(function (file) {
      var at = url(file[0]);
      return cache.match(at).then(function (kept) {
        return kept || pageDownloads || self.keepFile(cache, file);
      });
    }));
  }));
});

self.addEventListener("message", function (event) {
  if (event.data === "take-over") { self.skipWaiting(); }
  if (event.data && event.data.type === "language" && self.speak(event.data.tag)) {
    // The app's language (shell.js), kept for when this worker starts again.
    told = true;
    event.waitUntil(caches.open(CACHE).then(function (cache) {
      return cache.put(SPOKEN_AT, new Response(self.LANGUAGE_TAG));
    }));
  }
});

// The app's language as the page last told it, once read (else the browser's).
var SPOKEN_AT = url("language");
var told = false;
var spokenRead = caches.match(SPOKEN_AT, { cacheName: CACHE }).then(function (kept) {
  return kept && kept.text().then(function (tag) { return told || self.speak(tag); });
}).catch(function () { /* the browser's language */ });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(PREFIX) === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var at = event.request.url.split("#")[0];
  if (at.indexOf(SCOPE) !== 0) { return; }
  if (at.indexOf(STATIC) === 0) {
    event.respondWith(fromCache(event.request)); // the app's static files, in the build too
  } else if (at.indexOf(APP) === 0 || at.split("?")[0] === SCOPE + "app") {
    event.respondWith(toApp(event.request));
  } else {
    event.respondWith(fromCache(event.request));
  }
});

function fromCache(request) {
  var at = request.url.split("#")[0].split("?")[0];
  var key = at === SCOPE ? INDEX : at;
  return caches.open(CACHE).then(function (cache) {
    return keptBy(cache, key).then(function (hit) {
      if (!hit) { return fetch(request); }
      return versioned(request.url) ? forAYear(hit) : hit;
    });
  });
}

// A file the page keeps last (KEPT_LAST) that is not kept yet is on its way: a first
// visit's app worker asks for it while the page still downloads it (shell.js). Its
// answer waits until the page has kept it (KEPT_LAST_WAIT_SECONDS at most, then the
// network: within the time a browser gives a service worker's event).
var KEPT_LAST = self.KEPT_LAST.map(url);
var KEPT_LAST_WAIT_SECONDS = 180;
var LOOK_AGAIN_MS = 100;

function keptBy(cache, key) {
  var deadline = Date.now() + KEPT_LAST_WAIT_SECONDS * 1000;
  function look() {
    return cache.match(key).then(function (hit) {
      if (hit || KEPT_LAST.indexOf(key) < 0 || Date.now() > deadline) { return hit; }
      return new Promise(function (later) { setTimeout(later, LOOK_AGAIN_MS); }).then(look);
    });
  }
  return look();
}

// The app's static files at an address that carries a digest (?v=, as the app writes
// them: companion/static_files.py) are sent to be kept for a year, as the server sends
// its current ones: the page then reuses what it has, where it asked again at every
// table it showed (the icons' sprite, read anew each time: 4 ms of a tap in Chromium).
// Whatever the digest, the file is this version's own (its cache holds no other), and
// what a page keeps from a service worker lives no longer than the page's process.
function versioned(address) {
  return address.indexOf(STATIC) === 0 && new URL(address).searchParams.has("v");
}

function forAYear(response) {
  var headers = new Headers(response.headers);
  headers.set("Cache-Control", "public, max-age=31536000, immutable");
  return new Response(response.body, { status: response.status, headers: headers });
}

// ---- the app's requests, answered by the page that runs it
function isShell(client) {
  var at = client.url.split("#")[0].split("?")[0];
  return at === SCOPE || at === INDEX;
}

function toApp(request) {
  var address = new URL(request.url);
  if (request.mode === "navigate" && request.destination === "document") {
    // An app page opened on its own (a bookmark, the history): the app's page opens it.
    return Promise.resolve(Response.redirect(SCOPE + "?open=" + encodeURIComponent(address.pathname + address.search), 303));
  }
  var hasBody = request.method !== "GET" && request.method !== "HEAD";
  return Promise.all([
    hasBody ? request.arrayBuffer() : Promise.resolve(null),
    self.clients.matchAll({ type: "window", includeUncontrolled: true }),
  ]).then(function (got) {
    var asked = {
      method: request.method,
      url: address.pathname + address.search,
      headers: Array.from(request.headers.entries()),
    };
    var shells = got[1].filter(isShell);
    return firstAnswer(shells.map(function (shell) {
      return ask(shell, Object.assign({ body: got[0] && got[0].slice(0) }, asked));
    }));
  }).then(function (answer) {
    if (!answer) { return spokenRead.then(notRunning); }
    var empty = answer.status === 204 || answer.status === 205 || answer.status === 304;
    return new Response(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
  });
}

function ask(client, request) {
  return new Promise(function (resolve) {
    var channel = new MessageChannel();
    var started = Date.now();
    // A page that closed (or reloaded) while the app answered never will: no answer,
    // at once (an event left pending also holds a new version back from taking over).
    var watch = setInterval(function () {
      self.clients.get(client.id).then(function (still) {
        if (!still || Date.now() - started > WAIT_SECONDS * 1000) { done(null); }
      });
    }, 500);
    function done(answer) { clearInterval(watch); resolve(answer); }
    channel.port1.onmessage = function (event) { done(event.data); };
    client.postMessage({ type: "request", request: request }, [channel.port2]);
  });
}

function firstAnswer(asked) {
  // The page that runs the app answers; another (a tab waiting its turn) says so at once.
  if (!asked.length) { return Promise.resolve(null); }
  return new Promise(function (resolve) {
    var left = asked.length;
    asked.forEach(function (one) {
      one.then(function (answer) {
        if (answer) { resolve(answer); } else if (--left === 0) { resolve(null); }
      });
    });
  });
}

function escaped(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function notRunning() {
  // Each sentence given to _ on its own: `make messages` finds no call inside another.
  var said = _("The app is not running in this browser.");
  var open = _("Open the app");
  var page = "<!doctype html><html lang='" + self.LANGUAGE_TAG + "'><meta charset=utf-8>" +
    "<meta name=viewport content='width=device-width'><title>No Mercy Companion</title><p>" +
    escaped(said) + " <a href='" + SCOPE + "' target='_top'>" + escaped(open) + "</a></p>";
  return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
