// The language of the phone's page (shell.js) and of its service worker (sw.js): the
// app's own, as its last page said it (its Language page's choice, kept by shell.js),
// else the browser's first that the app speaks. Their sentences are English in their
// code, each given to _; words.js holds them in the app's other languages (made by make
// standalone from the app's catalogs, where `make messages` finds them).
"use strict";

self.SPOKEN = "nomercy.standalone.language"; // where the page keeps the app's language

// Speak the language of `tag` (a page's lang: "de", "pt-BR") if the app speaks it.
self.speak = function (tag) {
  var code = String(tag || "").toLowerCase().split("-")[0];
  if (code !== "en" && !(self.WORDS || {})[code]) { return false; }
  self.LANGUAGE = code;
  self.LANGUAGE_TAG = code === "pt" ? "pt-BR" : code; // the app's Portuguese is Brazil's
  return true;
};

(function () {
  var kept = null;
  try { kept = self.localStorage.getItem(self.SPOKEN); } catch (e) { /* a service worker */ }
  var browser = self.navigator.languages || [self.navigator.language || "en"];
  [kept].concat(browser, ["en"]).some(self.speak);
})();

// A sentence in that language, its {fields} filled in.
self._ = function (text, fields) {
  var said = ((self.WORDS || {})[self.LANGUAGE] || {})[text] || text;
  return said.replace(/\{(\w+)\}/g, function (all, name) {
    return fields && name in fields ? fields[name] : all;
  });
};
