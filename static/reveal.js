// The reveal keyboard: a loser's cards tapped in, collected in a row with a running
// count and their points. The codes field stays the one thing posted (the page works
// without this script); the keys only write into it, and the row is drawn from it.
(function () {
  "use strict";
  // What was being entered when the live table was swapped in (another phone recorded
  // something): the chosen loser, the tab and each loser's codes, put back afterwards.
  var kept = null;

  // The page's sentences (data-say-* on the panel, rendered in the page's language):
  // fields in braces filled in; a count's form chosen by the language's plural rule.
  var rules = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang) : null;
  function fill(text, fields) {
    return text.replace(/\{(\w+)\}/g, function (all, name) { return name in fields ? String(fields[name]) : all; });
  }
  function counted(say, what, n, fields) {
    var form = (rules ? rules.select(n) : (n === 1 ? "one" : "other")) === "one" ? "One" : "Other";
    return fill(say[what + form], Object.assign({ n: n }, fields || {}));
  }

  function codesOf(input) {
    return input.value.replace(/,/g, " ").trim().split(/\s+/).filter(Boolean);
  }

  function setUp(panel) {
    var keys = panel.querySelector("[data-reveal-keys]");
    var chips = panel.querySelector("[data-reveal-chips]");
    var forms = Array.prototype.slice.call(panel.querySelectorAll("form[data-reveal]"));
    var say = panel.dataset;
    var cards = {};  // code -> the key's name, points, colour and face, as the page has them
    keys.querySelectorAll("[data-code]").forEach(function (key) {
      cards[key.dataset.code] = {
        name: key.getAttribute("aria-label"),
        points: Number(key.dataset.points),
        css: key.className.replace("reveal-key", "").trim(),
        letter: key.querySelector("b").textContent,
        face: key.querySelector(".face")  // drawn as on the key: an icon and/or text
      };
    });

    function chosen() {
      return forms.filter(function (f) { return !f.hidden; })[0];
    }

    function draw(form) {
      var input = form.querySelector("[data-reveal-codes]");
      var row = form.querySelector("[data-reveal-row]");
      var codes = codesOf(input);
      var total = 0;
      row.textContent = "";
      codes.forEach(function (code, i) {
        var card = cards[code.toUpperCase()];
        var b = document.createElement("button");
        b.type = "button";
        b.className = "got " + (card ? card.css : "unknown");
        b.dataset.index = String(i);
        b.setAttribute("aria-label", fill(say.sayRemove, { card: card ? card.name : code }));
        var letter = document.createElement("b");
        letter.textContent = card ? card.letter : "?";
        var face = card ? card.face.cloneNode(true) : document.createElement("i");
        if (!card) { face.textContent = code; }
        b.appendChild(letter); b.appendChild(face);
        row.appendChild(b);
        total += card ? card.points : 0;
      });
      if (!codes.length) {
        var hint = document.createElement("span");
        hint.className = "hint";
        hint.textContent = say.sayHint;
        row.appendChild(hint);
      }
      row.scrollLeft = row.scrollWidth;
      var held = form.dataset.held;
      var count = held === undefined ? counted(say, "sayCards", codes.length)
        : counted(say, "sayOf", Number(held), { got: codes.length });
      form.querySelector("[data-reveal-count]").textContent =
        fill(say.sayCount, { cards: count, points: counted(say, "sayPoints", total) });
    }

    function choose(name) {
      var form = forms.filter(function (f) { return f.dataset.player === name; })[0] || forms[0];
      forms.forEach(function (f) { f.hidden = f !== form; });
      if (chips) {
        chips.querySelectorAll("[data-player]").forEach(function (chip) {
          chip.setAttribute("aria-pressed", chip.dataset.player === form.dataset.player ? "true" : "false");
        });
      }
      form.insertBefore(keys, form.querySelector(".reveal-send"));
    }

    function showTab(letter) {
      keys.querySelectorAll("[data-tab]").forEach(function (tab) {
        tab.setAttribute("aria-pressed", tab.dataset.tab === letter ? "true" : "false");
      });
      keys.querySelectorAll("[data-grid]").forEach(function (grid) {
        grid.hidden = grid.dataset.grid !== letter;
      });
    }

    forms.forEach(function (form) {
      var input = form.querySelector("[data-reveal-codes]");
      var player = form.dataset.player;
      // Put back what this phone had entered before a live update (a refusal brings
      // back what was posted instead).
      var points = form.querySelector("input[name=points]");
      if (kept && kept.codes[player] && !input.value) { input.value = kept.codes[player]; }
      if (kept && kept.points[player] && !points.value) { points.value = kept.points[player]; }
      form.querySelector(".reveal-got").hidden = false;
      var typed = form.querySelector(".reveal-codes");
      form.appendChild(typed);  // typing codes: the fallback, last, folded
      typed.open = false;
      input.addEventListener("input", function () { draw(form); });
      form.querySelector("[data-reveal-row]").addEventListener("click", function (e) {
        var got = e.target.closest("button.got");
        if (!got) { return; }
        var codes = codesOf(input);
        var at = Number(got.dataset.index);
        codes.splice(at, 1);
        input.value = codes.join(" ");
        draw(form);
        // Focus stays in the row (the card that took its place), else goes to the keys.
        var left = form.querySelectorAll("button.got");
        var next = left[Math.min(at, left.length - 1)] || keys.querySelector("[data-grid]:not([hidden]) button");
        if (next) { next.focus(); }
      });
      draw(form);
    });

    keys.addEventListener("click", function (e) {
      var tab = e.target.closest("[data-tab]");
      if (tab) { showTab(tab.dataset.tab); return; }
      var key = e.target.closest("[data-code]");
      if (!key) { return; }
      var form = chosen();
      var input = form.querySelector("[data-reveal-codes]");
      input.value = codesOf(input).concat([key.dataset.code]).join(" ");
      draw(form);
    });

    if (chips && forms.length > 1) {
      chips.hidden = false;
      panel.classList.add("has-chips");
      chips.addEventListener("click", function (e) {
        var chip = e.target.closest("[data-player]");
        if (chip) { choose(chip.dataset.player); }
      });
    }
    // A refusal shows the loser it was for; else the one this phone had chosen, else the
    // one the page marks (the first).
    var marked = panel.querySelector("form[data-chosen]");
    var refused = panel.querySelector(".reveal-refused") ? marked : null;
    choose(refused ? refused.dataset.player : (kept && kept.chosen) || marked.dataset.player);
    showTab(kept ? kept.tab : "R");
    keys.hidden = false;
    panel.classList.add("keyed");
  }

  function keep() {
    var panel = document.querySelector("[data-reveal-panel].keyed");
    if (!panel) { kept = null; return; }
    var codes = {}, points = {};
    panel.querySelectorAll("form[data-reveal]").forEach(function (form) {
      codes[form.dataset.player] = form.querySelector("[data-reveal-codes]").value;
      points[form.dataset.player] = form.querySelector("input[name=points]").value;
    });
    var form = panel.querySelector("form[data-reveal]:not([hidden])");
    var tab = panel.querySelector("[data-tab][aria-pressed=true]");
    kept = { chosen: form && form.dataset.player, tab: tab ? tab.dataset.tab : "R",
             codes: codes, points: points };
  }

  function init() {
    document.querySelectorAll("[data-reveal-panel]:not(.keyed)").forEach(setUp);
    kept = null;
  }

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.shouldSwap) { keep(); }
  });
  document.addEventListener("htmx:afterSwap", init);
})();
