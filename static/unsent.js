// Never a lost tap. A play, undo or reveal that got no answer from the server (no
// connection, the answer lost on the way back, a timeout, a proxy's 502/503/504, or the
// server's 503 when its database is out, which the notice names as such) is
// kept on this phone (sessionStorage: a reload keeps it too) and offered again. "Send
// again" posts the very same fields, form key included: a tap that did arrive counts
// once (the server answers "already done" with the table as it is). Nothing is ever
// sent but by the person's tap, and while a tap is kept no other play is sent on top
// of it (it was made on the same table: one of the two would be refused anyway, and
// which one should count is the person's call). Sentences come from the page.
(function () {
  "use strict";
  var LOST = [0, 502, 503, 504];  // 0: no answer at all
  var RESEND = "data-unsent-resend";
  var OUTAGE = "Companion-Outage";  // the app's header on its answer to a database outage
  var slot = "unsent " + location.pathname;  // one kept tap per table
  var box = null;

  function kept() {
    try { return JSON.parse(sessionStorage.getItem(slot) || "null"); } catch (e) { return null; }
  }
  function keep(tap) {
    try { sessionStorage.setItem(slot, JSON.stringify(tap)); } catch (e) { /* still shown */ }
  }
  function forget() {
    try { sessionStorage.removeItem(slot); } catch (e) { /* nothing kept */ }
  }

  function show(tap, blocked) {
    var why = box.querySelector("[data-unsent-why]");
    if (!why.dataset.connection) { why.dataset.connection = why.textContent; }
    // The server's own 503 when its database is out (companion/views), not the network.
    why.textContent = tap.database ? why.dataset.database : why.dataset.connection;
    var what = box.querySelector("[data-unsent-what]");
    what.textContent = tap.label ? box.dataset.what.replace("{play}", tap.label) : box.dataset.unnamed;
    box.querySelector("[data-unsent-blocked]").hidden = !blocked;
    box.hidden = false;
    document.body.classList.add("has-unsent");
  }
  function hide() {
    box.hidden = true;
    document.body.classList.remove("has-unsent");
  }

  // What the person tapped, as the page names it (a card's name, "Take 2", "Undo: ..."),
  // with the cards drawn before it: the whole line kept ("drew 3, then Red 8").
  function labelOf(form, event) {
    var button = (event && event.submitter) || form.querySelector("[type=submit]");
    var text = button ? button.getAttribute("aria-label") || button.textContent : "";
    text = text.replace(/\s+/g, " ").trim();
    var drawn = form.querySelector("input[name=drawn]");
    var num = drawn ? parseInt(drawn.value, 10) || 0 : 0;
    if (num > 0 && button && button.name === "action") {
      var sentence = button.value === "draw" ? box.dataset.drewOnly : box.dataset.drewThen;
      text = sentence.replace("{num}", String(num)).replace("{play}", text);
    }
    return text;
  }

  // Every post from the table: watch its answer on the request itself (the form may be
  // gone by then, swapped out by the live table).
  document.addEventListener("htmx:beforeRequest", function (e) {
    var d = e.detail, config = d.requestConfig;
    if (!box || !config || config.verb !== "post" || !d.elt.closest("#table")) { return; }
    var resent = d.elt.hasAttribute(RESEND);
    var tap = resent ? kept() : {
      path: config.path,
      fields: Array.from(config.formData.entries()),
      label: labelOf(d.elt, config.triggeringEvent)
    };
    d.xhr.addEventListener("loadend", function () {
      box.querySelector("[data-unsent-send]").disabled = false;
      if (LOST.indexOf(d.xhr.status) >= 0) {
        tap.database = d.xhr.getResponseHeader(OUTAGE) === "database";
        keep(tap);
        show(tap, false);
      } else if (resent) {  // answered: recorded now, already, or refused with the table
        forget();
        hide();
      }
    });
  });

  // While a tap is kept, no other post: the notice says so instead.
  document.addEventListener("htmx:confirm", function (e) {
    var tap = box && kept();
    if (!tap || e.detail.verb !== "post" || e.detail.elt.hasAttribute(RESEND)) { return; }
    e.preventDefault();
    show(tap, true);
    box.querySelector("[data-unsent-send]").focus();
  });

  // The same fields again, through the table like any of its forms (same target, swap).
  function sendAgain() {
    var tap = kept(), table = document.getElementById("table");
    if (!tap || !table) { hide(); return; }
    var form = document.createElement("form");
    form.method = "post";
    form.setAttribute("action", tap.path);
    form.setAttribute(RESEND, "");
    form.hidden = true;
    tap.fields.forEach(function (field) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = field[0];
      input.value = field[1];
      form.appendChild(input);
    });
    table.appendChild(form);
    htmx.process(form);
    box.querySelector("[data-unsent-send]").disabled = true;
    form.requestSubmit();
  }

  document.addEventListener("DOMContentLoaded", function () {
    box = document.getElementById("unsent");
    if (!box) { return; }
    box.querySelector("[data-unsent-send]").addEventListener("click", sendAgain);
    box.querySelector("[data-unsent-drop]").addEventListener("click", function () {
      forget();
      hide();
    });
    var tap = kept();
    if (tap) { show(tap, false); }  // a reload: offered again, never sent by itself
  });
})();
