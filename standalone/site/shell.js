// The app in the phone's own page (make standalone; docs in README, "The app with no
// server"). On the first visit it downloads the build's files into a cache named after
// the build's version, showing the bytes as they come; it registers the service worker
// (sw.js), which from then on serves those files with no network, and starts the app's
// Python in a worker (worker.js) while the last of them (the app's packages) download.
// The app is shown in the frame: each request the frame makes reaches the service
// worker, which hands it to this page, which hands it to the worker; the app's answer
// goes back the same way.
(function () {
  "use strict";

  var BUILD = self.BUILD; // build.js: this build's version and files
  var CACHE = "standalone-" + BUILD.version;
  var LAST = "nomercy.standalone.at"; // the app's page shown last, reopened at start
  var SETTINGS = "nomercy.standalone.settings";
  var APP = new URL("app/", location.href);

  // ---- the few sentences of this page: each given to _ (language.js, words.js)
  var _ = self._ || function (text) { return text; }; // English, were language.js missing
  document.documentElement.lang = self.LANGUAGE_TAG || "en";

  var said = document.getElementById("said");
  var bar = document.getElementById("bar");
  var figures = document.getElementById("figures");
  var again = document.getElementById("again");
  var frame = document.getElementById("app");
  function say(text) { said.textContent = text; }
  function stopped(text) {
    say(text);
    bar.hidden = figures.hidden = true;
    again.textContent = _("Try again");
    again.hidden = false;
    again.onclick = function () { location.reload(); };
  }
  say(_("Starting the app…"));

  if (!("serviceWorker" in navigator) || !self.caches || !self.Worker || !window.isSecureContext) {
    stopped(_("This browser can't keep the app on the phone. It needs a recent browser, and a secure address (https)."));
    return;
  }

  // ---- the build's files, each downloaded once into this version's cache; the app's
  // Python starts once all but KEPT_LAST (files.js) are kept, while those download (run)
  function megabytes(bytes) { return (bytes / 1e6).toFixed(1); }
  function download() {
    var kept = caches.open(CACHE).then(function (cache) {
      var total = BUILD.files.reduce(function (sum, file) { return sum + self.downloadSize(file); }, 0);
      var done = 0;
      function count(bytes) {
        done = Math.min(done + bytes, total); // a host may send a .gz unpacked
        bar.value = done / total;
        figures.textContent = _("{done} of {total} MB", { done: megabytes(done), total: megabytes(total) });
      }
      function keep(file) {
        var url = new URL(file[0], location.href).href;
        return cache.match(url).then(function (kept) {
          if (kept) { count(self.downloadSize(file)); return; }
          if (bar.hidden) { // something to download: the bar is shown
            say(_("Downloading the app, once: it is kept on this phone for use with no connection."));
            bar.hidden = figures.hidden = false;
          }
          return self.keepFile(cache, file, count);
        });
      }
      // All at once (the network shared, as a phone's is), the app's worker started
      // once all but KEPT_LAST are kept.
      var keeping = BUILD.files.map(keep);
      var first = Promise.all(keeping.filter(function (promise, at) {
        return self.KEPT_LAST.indexOf(BUILD.files[at][0]) < 0;
      }));
      return { first: first, all: Promise.all(keeping) };
    });
    var all = kept.then(function (steps) { return steps.all; });
    all.catch(function () { /* said where it is waited for (run), if it is */ });
    return { first: kept.then(function (steps) { return steps.first; }), all: all };
  }

  function downloadFailed(error) {
    stopped(navigator.onLine === false || error instanceof TypeError
      ? _("The app could not be downloaded: no connection. Open it once with a connection; from then on it works without one.")
      : _("The app could not start: {why}", { why: String(error.message || error) }));
    throw error;
  }

  // ---- a version installed while the app ran before is taken now, at the start
  var NOT_TAKEN = "nomercy.standalone.not-taken";
  function takeWaitingVersion() {
    return navigator.serviceWorker.getRegistration().then(function (registration) {
      var next = registration && registration.waiting;
      if (!next || !navigator.serviceWorker.controller) { return false; }
      if (sessionStorage.getItem(NOT_TAKEN)) { // tried for half a minute: the next start
        sessionStorage.removeItem(NOT_TAKEN);
        return false;
      }
      return new Promise(function (resolve) {
        // The page reloads once the new version is active, not before: a page loaded
        // while the browser still switches versions can wait for good (seen in
        // Chromium). Redundant: a newer version replaced it, and a reload takes that.
        var nudge = null, nudges = 0, timer = null;
        function reload() {
          clearInterval(timer);
          if (nudge) { nudge.remove(); }
          resolve(true);
        }
        next.addEventListener("statechange", function () {
          if (next.state === "activated" || next.state === "redundant") { reload(); }
        });
        next.postMessage("take-over");
        // Chromium may stop the running version for it, start it again for this page's
        // icons, then leave the new one waiting until a page under the app's address
        // is next opened, that page's request lost as they switch. A frame nobody sees
        // is that page (an image: no script), opened again while the new one waits.
        // After half a minute, a reload, and that start opens the version it has.
        timer = setInterval(function () {
          if (++nudges > 20) {
            sessionStorage.setItem(NOT_TAKEN, "1");
            reload();
            return;
          }
          if (next.state !== "installed") { return; } // activating: active soon
          if (nudge) { nudge.remove(); }
          nudge = document.createElement("iframe");
          nudge.hidden = true;
          nudge.src = "icon.svg?nudge=" + nudges;
          document.body.appendChild(nudge);
        }, 1500);
      });
    });
  }

  function staleVersion() {
    // Once only: a cache the browser emptied itself is downloaded again, not reloaded.
    var once = "nomercy.standalone.reloaded";
    if (!navigator.serviceWorker.controller || sessionStorage.getItem(once)) {
      sessionStorage.removeItem(once);
      return Promise.resolve(false);
    }
    return caches.has(CACHE).then(function (kept) {
      if (!kept) { sessionStorage.setItem(once, "1"); }
      return !kept;
    });
  }

  function announceUpdates(registration) {
    function watch(worker) {
      worker.addEventListener("statechange", function () {
        if (worker.state === "installed" && navigator.serviceWorker.controller) {
          var news = document.getElementById("news");
          news.textContent = _("A new version of the app is ready: it opens the next time the app starts. Your matches are kept.");
          news.hidden = false;
          news.onclick = function () { news.hidden = true; };
          setTimeout(function () { news.hidden = true; }, 10000);
        }
      });
    }
    if (registration.installing) { watch(registration.installing); }
    registration.addEventListener("updatefound", function () { watch(registration.installing); });
  }

  // ---- the app's Python, in a worker; the frame's requests handed to it
  var answered = self.ANSWERED = [];
  function startPython() {
    return new Promise(function (resolve, reject) {
      // The tap guard's timings for this browser only, if set (the tests' quicker taps:
      // tests/browser/test_standalone.py); the worker takes no other setting.
      var settings = "{}";
      try { settings = localStorage.getItem(SETTINGS) || "{}"; } catch (e) { /* none */ }
      var worker = new Worker("worker.js?settings=" + encodeURIComponent(settings), { type: "module" });
      worker.onmessage = function (event) {
        if (event.data.type === "ready") {
          resolve({ worker: worker, timings: event.data.timings });
        }
        if (event.data.type === "failed") { reject(new Error(event.data.message)); }
        if (event.data.type === "storage") { unkeptNotice(worker, event.data); }
        // What the app spent on each of the last requests (read by the measurements).
        if (event.data.type === "answered") {
          answered.push(event.data);
          answered.splice(0, answered.length - 100);
        }
        // A redirect's write, made after it left (worker.js): added to its answer.
        if (event.data.type === "keptAfter") {
          var written = answered.filter(function (a) { return a.url === event.data.url; }).pop();
          if (written) { written.keptAfter = event.data.ms; }
        }
      };
      worker.onerror = function (event) { reject(new Error(event.message || "worker.js")); };
    });
  }

  // The browser refused to keep a change (worker.js): the table shows it, and this says
  // it is not kept until a later write (or a tap on "Keep it") succeeds.
  function unkeptNotice(worker, storage) {
    var notice = document.getElementById("unkept");
    if (storage.kept) { notice.hidden = true; return; }
    if (storage.message) { console.warn("Not kept:", storage.message); }
    // Each sentence given to _ on its own: `make messages` finds no call inside another.
    var said = storage.atStart
      ? _("This phone's storage refused what the app wrote as it started (it may be full, or the browser keeps nothing in private browsing). The app works, but what it records is lost if it closes now. Free some space, then tap Keep it.")
      : _("This phone did not keep the last change: its storage refused it (it may be full, or the browser keeps nothing in private browsing). The table shows it, but it is lost if the app closes now. Free some space, then tap Keep it.");
    document.getElementById("unkept-said").textContent = said;
    var button = document.getElementById("keep");
    button.textContent = _("Keep it");
    button.disabled = false; // again, after a tap that was refused too
    button.onclick = function () {
      button.disabled = true;
      worker.postMessage({ type: "keep" });
    };
    notice.hidden = false;
  }

  // The service worker asks every page of the app's address; until this one runs the
  // app (or when another page does), it says so at once, with no answer.
  var running = null;
  navigator.serviceWorker.addEventListener("message", function (event) {
    if (!event.data || event.data.type !== "request") { return; }
    if (!running) { event.ports[0].postMessage(null); return; }
    var body = event.data.request.body;
    running.postMessage(event.data.request, [event.ports[0]].concat(body ? [body] : []));
  });
  navigator.serviceWorker.startMessages();

  function firstPage() {
    var asked = new URLSearchParams(location.search).get("open");
    var last = null;
    try { last = localStorage.getItem(LAST); } catch (e) { /* none kept */ }
    var page = [asked, last].filter(function (at) {
      return at && new URL(at, location.href).href.indexOf(APP.href) === 0;
    })[0];
    return page || APP.href;
  }

  // The app's language, as its page says it (its Language page's choice, else the
  // browser's): this page and the service worker speak it too, from the next start on
  // (language.js) and from now on.
  var toldTheWorker = null;
  function spoken(tag) {
    if (!tag || !self.speak || !self.speak(tag)) { return; }
    document.documentElement.lang = self.LANGUAGE_TAG;
    localStorage.setItem(self.SPOKEN, self.LANGUAGE_TAG);
    var worker = navigator.serviceWorker.controller;
    if (worker && toldTheWorker !== self.LANGUAGE_TAG) {
      worker.postMessage({ type: "language", tag: self.LANGUAGE_TAG });
      toldTheWorker = self.LANGUAGE_TAG;
    }
  }

  function show() {
    frame.addEventListener("load", function () {
      try {
        var at = frame.contentWindow.location;
        localStorage.setItem(LAST, at.pathname + at.search);
        document.title = frame.contentDocument.title || document.title;
        spoken(frame.contentDocument.documentElement.lang);
      } catch (e) { /* kept for this page only */ }
    });
    frame.src = firstPage();
    frame.hidden = false;
    document.getElementById("start").hidden = true;
    document.body.classList.add("running");
    if (location.search) { history.replaceState(null, "", location.pathname); }
  }

  var downloadTime = {};
  function run() {
    var downloading = null, started = 0;
    return takeWaitingVersion().then(function (taken) {
      if (taken) { location.reload(); return new Promise(function () {}); }
      return staleVersion();
    }).then(function (stale) {
      // Another tab took a new version while this page waited for it to close: this
      // page's version is gone, and a reload opens the new one (with no download).
      if (stale) { location.reload(); return new Promise(function () {}); }
      started = performance.now();
      downloading = download();
      return downloading.first;
    }).catch(downloadFailed).then(function () {
      // Checked with the host on each start, build.js included (never from the HTTP cache).
      var registered = navigator.serviceWorker.register("sw.js", { updateViaCache: "none" });
      registered.then(announceUpdates, function () { /* the version this phone has */ });
      if (navigator.storage && navigator.storage.persist) { navigator.storage.persist(); }
      // Not waited for once this phone has a version: a host that does not answer (a
      // bad network) holds the browser's check of it, and this start would wait behind.
      return navigator.serviceWorker.controller ? navigator.serviceWorker.ready
        : registered.then(function () { return navigator.serviceWorker.ready; });
    }).then(function () {
      // The rest of the download (KEPT_LAST) while the app's Python starts: its worker
      // loads Pyodide's runtime meanwhile, and is served those files once they are kept.
      var downloaded = downloading.all.then(function () {
        downloadTime.download = performance.now() - started;
        say(_("Starting the app's Python…"));
      }).catch(downloadFailed);
      // When the app's worker was made, from the download's start (the measurements):
      // on a first visit, before the download's end.
      downloadTime.worker = performance.now() - started;
      return Promise.all([startPython(), downloaded]);
    }).then(function (ready) {
      // How long each step took (read by the tests and the measurements): the download's
      // last files and Pyodide's runtime (in the app's worker) at the same time.
      self.STARTED = Object.assign({ page: performance.now() }, downloadTime, ready[0].timings);
      running = ready[0].worker;
      show();
    }).catch(function (error) {
      if (again.hidden) { stopped(_("The app could not start: {why}", { why: String(error.message || error) })); }
    });
  }

  // One page at a time runs the app on this phone's data (two would write one database).
  // A reload's page waits a moment for the page before it to let go; another tab's is
  // said to be in the way until it closes.
  if (navigator.locks) {
    var waiting = setTimeout(function () {
      stopped(_("The app is already open in another tab or window of this browser. Use that one, or close it: the app then starts here."));
    }, 3000);
    navigator.locks.request("nomercy-standalone", function () {
      clearTimeout(waiting);
      again.hidden = true;
      say(_("Starting the app…"));
      return run().then(function () { return new Promise(function () {}); });
    });
  } else {
    run();
  }
})();
