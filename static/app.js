// Small enhancements; every page works without them.
(function () {
  "use strict";

  // Steppers: big -/+ buttons around a number field, kept within its min and max.
  function steppers(root) {
    root.querySelectorAll("[data-stepper]").forEach(function (box) {
      if (box.dataset.ready) { return; }
      box.dataset.ready = "1";
      var input = box.querySelector("input");
      box.querySelectorAll("[data-step]").forEach(function (button) {
        button.hidden = false;
        button.addEventListener("click", function () {
          var value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
          var min = input.min === "" ? -Infinity : parseInt(input.min, 10);
          var max = input.max === "" ? Infinity : parseInt(input.max, 10);
          input.value = String(Math.min(max, Math.max(min, value)));
          input.dispatchEvent(new Event("input", { bubbles: true }));
        });
      });
    });
  }

  // "Drew, no play" asks for the count of cards drawn first: off while it is 0.
  function drawButtons(root) {
    root.querySelectorAll("[data-needs-drawn]").forEach(function (button) {
      var input = button.form && button.form.querySelector("input[name=drawn]");
      if (!input || button.dataset.ready) { return; }
      button.dataset.ready = "1";
      function update() { button.disabled = !(parseInt(input.value, 10) > 0); }
      input.addEventListener("input", update);
      update();
    });
  }

  // Quick counts: one tap sets the stepper's field; in a group marked data-submit it
  // then presses the form's primary button (the browser still checks required fields).
  function quickCounts(root) {
    root.querySelectorAll("[data-quick-for]").forEach(function (group) {
      if (group.dataset.ready) { return; }
      group.dataset.ready = "1";
      var input = document.getElementById(group.dataset.quickFor);
      if (!input) { return; }
      group.hidden = false;
      function mark() {
        group.querySelectorAll("[data-set]").forEach(function (button) {
          button.setAttribute("aria-pressed", String(button.dataset.set === input.value));
        });
      }
      group.querySelectorAll("[data-set]").forEach(function (button) {
        button.addEventListener("click", function () {
          input.value = button.dataset.set;
          input.dispatchEvent(new Event("input", { bubbles: true }));
          if (group.hasAttribute("data-submit") && input.form) {
            var primary = input.form.querySelector("[data-primary]");
            if (primary) { primary.click(); }
          }
        });
      });
      input.addEventListener("input", mark);
      mark();
    });
  }

  // The drawn count's row shows its quick counts while the count is 0, its stepper and
  // "No play" once a count is chosen (a tap on 5 then + gives 6 and more).
  function drewRows(root) {
    root.querySelectorAll("[data-drew]").forEach(function (row) {
      var input = row.querySelector("input[name=drawn]");
      if (!input || row.dataset.ready) { return; }
      row.dataset.ready = "1";
      function update() {
        var counting = parseInt(input.value, 10) > 0;
        var was = row.classList.contains("counting");
        row.classList.toggle("counting", counting);
        // The tapped quick count is gone: keep the focus in the row (not the field,
        // which would open the phone's keyboard).
        if (counting && !was && row.contains(document.activeElement)) {
          var more = row.querySelector('[data-step="1"]');
          if (more) { more.focus(); }
        }
      }
      input.addEventListener("input", update);
      update();
    });
  }

  function enhance(root) {
    drewRows(root);
    steppers(root);
    quickCounts(root);
    drawButtons(root);
  }

  // The log panel: its content has arrived (htmx), so open it at the latest play.
  document.addEventListener("htmx:afterSwap", function (e) {
    var body = e.detail.target;
    if (!body || body.id !== "log-panel-body") { return; }
    var dialog = body.closest("dialog");
    if (dialog && !dialog.open) { dialog.showModal(); }
    var latest = body.querySelector("#latest");
    if (latest) { latest.scrollIntoView({ block: "center" }); }
  });
  // In the panel, "Jump to the latest" scrolls without a history entry.
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest('#log-panel a[href="#latest"]');
    var latest = link && document.getElementById("latest");
    if (latest) { e.preventDefault(); latest.scrollIntoView({ block: "center" }); }
  });

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (e) { enhance(e.target); });
})();
