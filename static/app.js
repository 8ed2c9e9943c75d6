// Small enhancements; every page works without them.
(function () {
  "use strict";
  // Reveal keyboards: tapping a card code appends it to the cards field.
  function revealKeys(root) {
    root.querySelectorAll("[data-keys]").forEach(function (box) {
      if (box.dataset.ready) { return; }
      box.dataset.ready = "1";
      var input = document.getElementById(box.dataset.keys);
      var codes = ["0","1","2","3","4","5","6","7","8","9","S","R","+2","+4","DA","SE"];
      var colors = [["R", "red"], ["Y", "yellow"], ["G", "green"], ["B", "blue"]];
      var wilds = ["WR+4", "W+6", "W+10", "WCR"];
      function add(code, css) {
        var b = document.createElement("button");
        b.type = "button"; b.textContent = code; b.className = css;
        b.addEventListener("click", function () {
          input.value = (input.value.trim() + " " + code).trim();
        });
        box.appendChild(b);
      }
      colors.forEach(function (c) { codes.forEach(function (f) { add(c[0] + f, c[1]); }); });
      wilds.forEach(function (w) { add(w, "wild"); });
      var back = document.createElement("button");
      back.type = "button"; back.textContent = "⌫"; back.setAttribute("aria-label", "Remove the last card");
      back.addEventListener("click", function () {
        input.value = input.value.trim().split(/\s+/).slice(0, -1).join(" ");
      });
      box.appendChild(back);
      box.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", function () { revealKeys(document); });
  document.addEventListener("htmx:afterSwap", function (e) { revealKeys(e.target); });
})();
