// The language of the phone's page (shell.js) and of its service worker (sw.js): the
// browser's first that the app speaks. Their sentences are English in their code, each
// given to _; words.js holds them in the app's other languages (made by make standalone
// from the app's catalogs, where `make messages` finds them).
"use strict";

self.LANGUAGE = (self.navigator.languages || [self.navigator.language || "en"])
  .map(function (tag) { return tag.toLowerCase().split("-")[0]; })
  .filter(function (code) { return code === "en" || (self.WORDS || {})[code]; })[0] || "en";
// As a page's lang says it (the app's Portuguese is Brazil's).
self.LANGUAGE_TAG = self.LANGUAGE === "pt" ? "pt-BR" : self.LANGUAGE;

// A sentence in that language, its {fields} filled in.
self._ = function (text, fields) {
  var said = ((self.WORDS || {})[self.LANGUAGE] || {})[text] || text;
  return said.replace(/\{(\w+)\}/g, function (all, name) {
    return fields && name in fields ? fields[name] : all;
  });
};
