/* The table's phone: what was tapped survives a reload or a lost connection, and a
 * submission made offline is kept on the phone and sent, with its idempotency key, once the
 * connection is back (the server stores it once however often it arrives). Offline, the form
 * moves on to the next deal after a deal is queued; every queued deal of the table goes in one
 * batch request, and a deal the server refuses is said on the page that follows.
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
    // What was kept of a blank form (any swap on the page keeps the form, blank too) brings
    // nothing back: no check of an empty form, whose verdict would only say it is empty.
    var now = {};
    fields(f).forEach(function (p) { now[p[0]] = p[1]; });
    var entered = Object.keys(values).some(function (name) {
      return name !== "idempotency_key" && (values[name] || "") !== (now[name] || "");
    });
    if (!entered) return;
    // The server re-renders the form from what was kept (taps, ticks, the idempotency key).
    htmx.ajax("POST", f.getAttribute("hx-post"), {source: f, target: f, swap: "outerHTML",
                                                  values: values});
  }

  function queue() { return load(QUEUE) || []; }
  function enqueue(item) {
    // A deal entered again replaces what was queued for it (the same deal of the same table).
    var items = queue().filter(function (q) {
      return q.key !== item.key && !(item.batch && q.batch === item.batch && q.number === item.number);
    });
    items.push(item);
    save(QUEUE, items);
  }
  function newKey() {
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // Several deals of a table go in one request: the phone's batch URL answers one
  // result per deal; each deal is stored on its own, with its own idempotency key.
  var sending = false;
  function flush() {
    var items = queue();
    if (sending || !items.length || !navigator.onLine) return;
    var first = items[0];
    if (!first.batch) return flushOne(first);
    var group = items.filter(function (q) { return q.batch === first.batch; });
    sending = true;
    var body = JSON.stringify({deals: group.map(function (q) {
      return {number: q.number, fields: q.fields.filter(function (p) { return p[0] !== "csrfmiddlewaretoken"; })};
    })});
    fetch(first.batch, {method: "POST", body: body, credentials: "same-origin",
                        headers: {"X-CSRFToken": first.csrf, "Content-Type": "application/json"}})
      .then(function (response) {
        if (response.status >= 500) { sending = false; return; }  // try again later
        return response.json().catch(function () { return {}; }).then(function (answer) {
          sending = false;
          var results = answer.results || [];
          var done = {};
          var refused = [];
          group.forEach(function (q, k) {
            var r = results[k] || {status: response.status, number: q.number,
                                   message: (answer.error || {}).message || ""};
            if (r.status >= 500) return;  // this deal again later
            done[q.key] = true;
            if (r.status < 300) localStorage.removeItem("gouji-entry:" + q.keep);
            else refused.push({number: q.number, name: q.name || String(q.number), message: r.message || ""});
          });
          save(QUEUE, queue().filter(function (q) { return !done[q.key]; }));
          if (refused.length) save(REFUSED, refused);
          stateLine("sent");
          window.location.href = window.location.pathname;
        });
      })
      .catch(function () { sending = false; });
  }
  function flushOne(item) {  // a deal queued by an older page, without a batch URL
    sending = true;
    var body = new FormData();
    item.fields.forEach(function (p) { body.append(p[0], p[1]); });
    body.append("action", "submit");
    fetch(item.url, {method: "POST", body: body, credentials: "same-origin",
                     headers: {"X-CSRFToken": item.csrf, "HX-Request": "true"}})
      .then(function (response) {
        sending = false;
        if (response.status >= 500) return;
        save(QUEUE, queue().filter(function (q) { return q.key !== item.key; }));
        localStorage.removeItem("gouji-entry:" + item.deal);
        window.location.href = window.location.pathname;
      })
      .catch(function () { sending = false; });
  }

  // Deals the server refused when the queue was sent: said once, on the page that follows.
  var REFUSED = "gouji-table-refused";
  function showRefused() {
    var refused = load(REFUSED);
    var line = document.getElementById("deal-state");
    if (!refused || !refused.length || !line) return;
    localStorage.removeItem(REFUSED);
    var list = document.createElement("ul");
    list.className = "problems queue-refused";
    list.setAttribute("role", "alert");
    refused.forEach(function (r) {
      var item = document.createElement("li");
      item.className = "problem";
      item.dataset.deal = r.number;
      item.textContent = r.name + " · " + r.message;
      list.appendChild(item);
    });
    line.parentNode.insertBefore(list, line.nextSibling);
  }

  // The form's blank values, as the page first came (the next deal starts from them).
  var initial = null;
  function blank(f) {
    var values = {};
    (initial || []).forEach(function (p) { (values[p[0]] = values[p[0]] || []).push(p[1]); });
    Array.prototype.forEach.call(f.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.type === "submit" || el.type === "button") return;
      var wanted = values[el.name] || [];
      if (el.type === "checkbox" || el.type === "radio") el.checked = wanted.indexOf(el.value) >= 0;
      else if (el.type === "file") el.value = "";
      else el.value = wanted.length ? wanted[0] : "";
    });
    var key = f.querySelector("input[name='idempotency_key']");
    if (key) key.value = newKey();
    var verdict = f.querySelector("#verdict");
    if (verdict) verdict.innerHTML = "";
  }
  // After a deal is queued, the form moves on to the next deal (the phone stays offline).
  function nextDeal(f) {
    var names = JSON.parse(f.dataset.names || "{}");
    var number = parseInt(f.dataset.deal, 10);
    var next = number + 1;
    if (!names[next]) return;  // the match's last deal: nothing to move on to
    var from = "/deals/" + number + "/";
    var to = "/deals/" + next + "/";
    var elements = [f].concat(Array.prototype.slice.call(f.querySelectorAll("[hx-post], [formaction]")));
    elements.forEach(function (el) {
      ["hx-post", "formaction", "action", "data-keep"].forEach(function (name) {
        var value = el.getAttribute(name);
        if (value) el.setAttribute(name, value.replace(from, to));
      });
    });
    f.dataset.deal = String(next);
    blank(f);
    // A game's own script redraws what it keeps client-side (Gou Ji's taps) from the blank fields.
    f.dispatchEvent(new CustomEvent("deal:blank", {bubbles: true}));
    var title = document.getElementById(f.dataset.title);
    if (title) title.textContent = names[next];
    if (window.htmx) htmx.process(f);
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
    var names = JSON.parse(f.dataset.names || "{}");
    remember();
    enqueue({batch: f.dataset.batch, number: parseInt(f.dataset.deal, 10), keep: f.dataset.keep,
             name: names[f.dataset.deal] || f.dataset.deal, fields: list, key: key, csrf: csrf});
    stateLine("queued");
    nextDeal(f);
  }

  // A submission the server accepted: the phone forgets what it kept for that deal.
  document.body.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr;
    if (xhr && xhr.getResponseHeader("HX-Redirect") && e.detail.elt.matches("[data-submit]")) {
      var f = e.detail.elt.form;
      if (f) localStorage.removeItem("gouji-entry:" + f.dataset.keep);
    }
  });

  // The next thing to do is in view without scrolling (at 390×844 too): a refused PIN's box
  // (focused), else what the page names as next (data-next: the first PIN box still to answer,
  // or the next deal's title with its form below it).
  function showNext() {
    var refused = document.querySelector("input[aria-invalid='true']");
    if (refused) {
      refused.focus({preventScroll: true});
      (refused.closest(".pin-side, .player-pin") || refused).scrollIntoView({block: "start"});
      return;
    }
    var marker = document.querySelector("[data-next]");
    var next = marker && marker.dataset.next && document.getElementById(marker.dataset.next);
    if (!next) return;
    // A PIN box comes with the result it confirms: the report's one line above the boxes is
    // brought into view with them.
    var report = next.closest(".awaiting-report, #open-report");
    var line = report && report.querySelector(".deal-line");
    if (line) next = line;
    var top = next.getBoundingClientRect().top;
    var cover = pinned();
    if (top < cover || top > window.innerHeight * 0.4) next.scrollIntoView({block: "start"});
  }

  // The organiser's announcements stay pinned at the top of the screen: what the phone brings
  // into view, and the form's sticky verdict, stop below them (--pinned, read by referee.css as
  // scroll-padding-top and the verdict's top), however tall they are or once dismissed.
  var watched = null;
  var sizes = window.ResizeObserver ? new ResizeObserver(pinned) : null;
  function pinned() {
    var box = document.getElementById("announcements");
    if (sizes && box && box !== watched) { sizes.observe(box); watched = box; }
    var height = box ? box.getBoundingClientRect().height : 0;
    document.documentElement.style.setProperty("--pinned", Math.ceil(height) + "px");
    return height;
  }
  document.body.addEventListener("htmx:afterSettle", pinned);

  window.addEventListener("online", flush);
  // Again after load: the browser's own jump to the URL's #anchor takes the focus away.
  window.addEventListener("load", function () { setTimeout(showNext, 0); });
  document.addEventListener("DOMContentLoaded", function () {
    pinned();
    showNext();
    var f = form();
    if (f) initial = fields(f);
    showRefused();
    if (queue().length) stateLine("queued");
    restore();
    flush();
  });
  setInterval(flush, 5000);
})();
