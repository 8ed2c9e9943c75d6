// The app in the pocket: installed (its service worker), the screen kept awake while a
// table is open, and a short vibration for each new line (longer for a big moment).
// Every page works without it; where a phone lacks an API, its setting stays hidden.
(function () {
  "use strict";

  // ---- the service worker (companion/views/pwa.py), from the manifest link's data-worker
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      var link = document.querySelector("link[rel=manifest][data-worker]");
      if (link) { navigator.serviceWorker.register(link.dataset.worker).catch(function () {}); }
    });
  }

  // ---- this phone's settings: on unless turned off (localStorage, kept across matches)
  var SETTINGS = {
    awake: "wakeLock" in navigator,
    vibrate: typeof navigator.vibrate === "function",
  };
  function isOn(name) {
    try { return localStorage.getItem("nomercy." + name) !== "off"; } catch (e) { return true; }
  }
  function turn(name, on) {
    try { localStorage.setItem("nomercy." + name, on ? "on" : "off"); } catch (e) { /* kept for this page only */ }
  }
  function showSettings(root) {
    root.querySelectorAll("[data-setting]").forEach(function (button) {
      var name = button.dataset.setting;
      button.setAttribute("aria-pressed", String(isOn(name)));
      var item = button.closest("li") || button;
      item.hidden = !SETTINGS[name];
    });
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-setting]");
    if (!button) { return; }
    var name = button.dataset.setting;
    turn(name, !isOn(name));
    showSettings(document);
    if (name === "awake") { keepAwake(); }
  });

  // ---- awake: a screen wake lock while a table is shown, taken again when it is visible
  var lock = null;
  var asking = false;
  function keepAwake() {
    if (!SETTINGS.awake) { return; }
    var want = isOn("awake") && document.getElementById("table") !== null &&
      document.visibilityState === "visible";
    if (want && !lock && !asking) {
      asking = true;
      navigator.wakeLock.request("screen").then(function (sentinel) {
        asking = false;
        lock = sentinel;
        sentinel.addEventListener("release", function () { if (lock === sentinel) { lock = null; } });
        keepAwake();  // turned off meanwhile: let go again
      }, function () { asking = false; });  // refused (low battery, ...): the screen dims as usual
    } else if (!want && lock) {
      var held = lock;
      lock = null;
      held.release().catch(function () {});
    }
  }
  document.addEventListener("visibilitychange", keepAwake);

  // ---- felt: the table says its newest line's id and what it did (data-events, from the
  // engine); each new line is felt once, never again on a reload (sessionStorage).
  // Every new line is felt (a short tick, beside the "Recorded" banner); a big moment more.
  var PATTERNS = { line: 25, knockout: [90, 50, 90], hand: [90, 50, 90], uno: 70, catch: 70 };
  function felt() {
    var table = document.getElementById("table");
    if (!table || !table.dataset.line) { return; }
    var key = "nomercy.line." + table.dataset.match;
    var line = parseInt(table.dataset.line, 10) || 0;
    var seen;
    try {
      seen = parseInt(sessionStorage.getItem(key), 10);
      if (isNaN(seen) || line > seen) { sessionStorage.setItem(key, String(line)); }
    } catch (e) { return; }
    if (isNaN(seen) || line <= seen || !SETTINGS.vibrate || !isOn("vibrate")) { return; }
    var kinds = (table.dataset.events || "").split(" ").filter(function (k) { return PATTERNS[k]; });
    var strong = kinds.filter(function (k) { return Array.isArray(PATTERNS[k]); });
    navigator.vibrate(kinds.length ? PATTERNS[(strong[0] || kinds[0])] : PATTERNS.line);
  }

  function enhance(root) {
    showSettings(root);
    keepAwake();
    felt();
  }
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (e) { enhance(e.target); });
})();
