/* The table's phone (issue 16): what was tapped survives a reload or a lost connection, and a
 * submission made offline is kept on the phone and sent, with its idempotency key, once the
 * connection is back (the server stores it once however often it arrives).
 *
 * Works on any game's form marked `data-keep` (its `data-keep` value names the deal), whose
 * submit button is `[data-submit]`. Shared by every game: no game-specific fields here. */
(function () {
  "use strict";
  var QUEUE = "gouji-table-queue";

  function form() { return document.querySelector("form[data-keep]"); }
  function fields(f) {
    var out = [];
    new FormData(f).forEach(function (value, name) {
      if (typeof value === "string" && name !== "tap" && name !== "add") out.push([name, value]);
    });
    return out;
  }
  function load(key) { try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; } }
  function save(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* full or private */ } }
  function stateLine(state) {
    var line = document.getElementById("deal-state");
    if (!line) return;
    var words = JSON.parse(line.dataset.words || "{}");
    line.dataset.state = state;
    line.textContent = words[state] || state;
  }

  function remember() {
    var f = form();
    if (!f) return;
    save("gouji-entry:" + f.dataset.keep, {fields: fields(f), at: Date.now()});
  }

  function restore() {
    var f = form();
    if (!f || f.dataset.restored) return;
    f.dataset.restored = "1";
    var kept = load("gouji-entry:" + f.dataset.keep);
    var blank = !fields(f).some(function (p) { return p[0] === "finish" && p[1]; });
    if (!kept || !blank || !window.htmx) return;
    var values = {};
    kept.fields.forEach(function (p) { if (p[0] !== "csrfmiddlewaretoken") values[p[0]] = p[1]; });
    // The server re-renders the form from what was kept (taps, ticks, the idempotency key).
    htmx.ajax("POST", f.getAttribute("hx-post"), {source: f, target: f, swap: "outerHTML",
                                                  values: values});
  }

  function queue() { return load(QUEUE) || []; }
  function enqueue(item) {
    var items = queue().filter(function (q) { return q.key !== item.key; });
    items.push(item);
    save(QUEUE, items);
  }

  var sending = false;
  function flush() {
    var items = queue();
    if (sending || !items.length || !navigator.onLine) return;
    sending = true;
    var item = items[0];
    var body = new FormData();
    item.fields.forEach(function (p) { body.append(p[0], p[1]); });
    body.append("action", "submit");
    fetch(item.url, {method: "POST", body: body, credentials: "same-origin",
                     headers: {"X-CSRFToken": item.csrf, "HX-Request": "true"}})
      .then(function (response) {
        sending = false;
        if (response.status >= 500) return;  // try again later
        save(QUEUE, queue().filter(function (q) { return q.key !== item.key; }));
        localStorage.removeItem("gouji-entry:" + item.deal);
        stateLine("sent");
        var next = response.headers.get("HX-Redirect");
        window.location.href = next || window.location.pathname;
      })
      .catch(function () { sending = false; });
  }

  document.addEventListener("change", function (e) { if (e.target.closest("form[data-keep]")) remember(); });
  document.body.addEventListener("htmx:afterSwap", function () { remember(); restoreIfNew(); });
  function restoreIfNew() { var f = form(); if (f) f.dataset.restored = "1"; }

  // A submit while offline (or whose request fails on the network) is queued on the phone.
  document.addEventListener("click", function (e) {
    var button = e.target.closest("[data-submit]");
    if (!button || navigator.onLine) return;
    e.preventDefault();
    e.stopPropagation();
    queueSubmit(button);
  }, true);
  document.body.addEventListener("htmx:sendError", function (e) {
    var button = e.detail.requestConfig && e.detail.requestConfig.triggeringEvent &&
      e.detail.requestConfig.triggeringEvent.submitter;
    if (button && button.matches("[data-submit]")) queueSubmit(button);
  });
  function queueSubmit(button) {
    var f = button.form;
    var list = fields(f);
    var key = (list.find(function (p) { return p[0] === "idempotency_key"; }) || [])[1] || "";
    var csrf = (list.find(function (p) { return p[0] === "csrfmiddlewaretoken"; }) || [])[1] || "";
    remember();
    enqueue({url: button.getAttribute("formaction"), fields: list, key: key, csrf: csrf,
             deal: f.dataset.keep});
    stateLine("queued");
  }

  // A submission the server accepted: the phone forgets what it kept for that deal.
  document.body.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr;
    if (xhr && xhr.getResponseHeader("HX-Redirect") && e.detail.elt.matches("[data-submit]")) {
      var f = e.detail.elt.form;
      if (f) localStorage.removeItem("gouji-entry:" + f.dataset.keep);
    }
  });

  window.addEventListener("online", flush);
  document.addEventListener("DOMContentLoaded", function () {
    if (queue().length) stateLine("queued");
    restore();
    flush();
  });
  setInterval(flush, 5000);
})();
