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
        // Its keys moved under the thumb: a second tap must not land on "No play".
        if (counting !== was) {
          var table = row.closest("#table");
          if (table) { settle(table); }
        }
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

  // A 7 or a Discard All played as the last card asks nothing and plays at once; after
  // a draw entered on the stepper the hand is bigger, and the key asks its question.
  document.addEventListener("click", function (e) {
    var key = e.target.closest && e.target.closest("button[data-ask]");
    var drawn = key && key.form && key.form.querySelector("input[name=drawn]");
    if (!drawn || !(parseInt(drawn.value, 10) > 0) || e.defaultPrevented) { return; }
    e.preventDefault();
    htmx.ajax("GET", key.dataset.ask, {
      source: key, target: "#table", select: "#table", swap: "outerHTML show:none",
      values: { drawn: drawn.value }
    });
  });

  // A quick hand's keypad: digits into the points field (never the phone's own
  // keyboard), one to take the last back; Record once there is a number.
  function keypads(root) {
    root.querySelectorAll("[data-keypad]").forEach(function (form) {
      var field = form.querySelector("[data-keypad-field]");
      var keys = form.querySelector("[data-keypad-keys]");
      if (!field || !keys || form.dataset.ready) { return; }
      form.dataset.ready = "1";
      keys.hidden = false;
      form.querySelectorAll("[data-keypad-plain]").forEach(function (plain) { plain.hidden = true; });
      field.readOnly = true;
      field.setAttribute("inputmode", "none");
      var record = keys.querySelector("[type=submit]");
      function update() { record.disabled = field.value === ""; }
      keys.querySelectorAll("[data-digit]").forEach(function (key) {
        key.addEventListener("click", function () {
          var value = (field.value === "0" ? "" : field.value) + key.dataset.digit;
          if (parseInt(value, 10) <= parseInt(field.max, 10)) { field.value = value; }
          update();
        });
      });
      keys.querySelector("[data-digit-back]").addEventListener("click", function () {
        field.value = field.value.slice(0, -1);
        update();
      });
      update();
    });
  }

  function enhance(root) {
    keypads(root);
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

  // ---- the tap guard (companion/taps.py): a tap is only taken on a screen the person
  // has seen. After every change of the table on screen (a play, an undo, the live
  // refresh, a tab that moves the keys) its keys ignore taps for data-settle ms, dimmed
  // (class "settling"), and while a tap is on its way no other is sent ("sending") nor
  // a refresh swapped in under it. The server refuses a tap sooner than that too.
  var settled = 0;  // performance.now() from which the table on screen takes taps
  var settleTimer = null;
  var sending = false;
  // The keys are dimmed while a tap is on its way only once its answer is this late
  // ("still-sending"): a quicker answer brings the new table, dimmed as it settles, and
  // dimming the old one first cost a repaint of every key (docs/PERFORMANCE.md).
  var SENDING_LOOK_MS = 200;
  var stillSendingTimer = null;

  function settle(table) {
    var ms = parseInt(table.dataset.settle, 10) || 0;
    settled = performance.now() + ms;
    clearTimeout(settleTimer);
    table.classList.toggle("settling", ms > 0);
    if (ms > 0) {
      settleTimer = setTimeout(function () {
        var now = document.getElementById("table");
        if (now) { now.classList.remove("settling"); }
      }, ms);
    }
  }
  function waiting() { return sending || performance.now() < settled; }

  // What records, or sets what a tap records: the buttons of the table's forms (a key,
  // a quick count, a stepper), never its links (tabs, a card's question).
  function records(target) {
    var control = target.closest && target.closest("button, input[type=submit]");
    var form = control && control.form;
    return Boolean(form && form.method === "post" && form.closest("#table"));
  }
  document.addEventListener("click", function (e) {
    if (waiting() && records(e.target)) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);
  document.addEventListener("htmx:confirm", function (e) {
    var elt = e.detail.elt;
    if (e.detail.verb === "post" && elt.closest && elt.closest("#table") && waiting() &&
        !elt.hasAttribute("data-unsent-resend")) {
      e.preventDefault();
    }
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt, config = e.detail.requestConfig;
    if (!elt.closest || !elt.closest("#table")) { return; }
    if (config && config.verb === "post") {
      sending = true;
      var table = document.getElementById("table");
      if (table) { table.classList.add("sending"); }
      clearTimeout(stillSendingTimer);
      stillSendingTimer = setTimeout(function () {
        var still = document.getElementById("table");
        if (sending && still) { still.classList.add("still-sending"); }
      }, SENDING_LOOK_MS);
      document.querySelectorAll("#table .live").forEach(function (live) {
        htmx.trigger(live, "htmx:abort");
      });
    } else if (sending && elt.classList.contains("live")) {
      e.preventDefault();  // the post's answer is the table: no refresh under it
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var config = e.detail.requestConfig;
    if (config && config.verb === "post" && e.detail.elt.closest) {
      sending = false;
      clearTimeout(stillSendingTimer);
      var table = document.getElementById("table");
      if (table) { table.classList.remove("sending", "still-sending"); }
    }
  });
  // The last line's banner shows two lines: a tap on its sentence shows it whole.
  document.addEventListener("click", function (e) {
    var said = e.target.closest && e.target.closest("#table .recorded p");
    if (said) { said.parentNode.classList.toggle("whole"); }
  });
  // After this phone's own tap, the table from its top: the line just recorded (or why
  // not), and what the table waits for next. Whether the page is scrolled is kept as it
  // scrolls: read after a swap, window.scrollY would lay the new table out at once, and
  // again once htmx has settled it (3 ms of a tap's 60 in Chromium on this machine).
  var scrolled = window.scrollY > 0;
  window.addEventListener("scroll", function () { scrolled = window.scrollY > 0; }, { passive: true });
  document.addEventListener("htmx:afterSwap", function (e) {
    var config = e.detail.requestConfig;
    if (scrolled && config && config.verb === "post" && e.detail.elt.closest &&
        e.detail.elt.closest("#table")) {
      window.scrollTo(0, 0);
    }
  });
  // A refresh answered after the table it came from was replaced would show an older one.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var elt = e.detail.elt;
    if (elt.classList && elt.classList.contains("live") && !document.body.contains(elt)) {
      e.detail.shouldSwap = false;
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    enhance(document);
    var table = document.getElementById("table");
    if (table) { settle(table); }
  });
  // The keys settle from the moment the new table is in the page (htmx:afterSwap; its
  // htmx:load comes a little later, after htmx's settle delay).
  document.addEventListener("htmx:afterSwap", function (e) {
    var table = document.getElementById("table");
    if (table && e.detail.target && e.detail.target.id === "table") { settle(table); }
  });
  document.addEventListener("htmx:load", function (e) {
    enhance(e.target);
    if (e.target.id === "table") { settle(e.target); }
  });
})();
