// Projector pages: show as many rows as fit the screen, move to the next page every
// `data-seconds`, and fetch the page again after the last one so new pairings and standings
// appear. When the event's live stream (static/js/live.js) says something changed, the rows
// are fetched at once and swapped in place: no reload, no blank screen.
(function () {
  "use strict";
  var rows = [], perPage = 1, pages = 1, page = 0;
  var label = null;

  function layout() {
    var table = document.querySelector("[data-pages]");
    label = document.querySelector(".p-page");
    if (!table) { rows = []; pages = 1; return; }
    rows = Array.prototype.slice.call(table.querySelectorAll("[data-row]"));
    var head = table.querySelector("thead");
    var room = window.innerHeight - table.getBoundingClientRect().top - 16;
    var rowHeight = rows.length ? rows[0].getBoundingClientRect().height : 1;
    perPage = Math.max(1, Math.floor((room - (head ? head.getBoundingClientRect().height : 0)) / rowHeight));
    pages = Math.max(1, Math.ceil(rows.length / perPage));
    if (page >= pages) { page = 0; }
  }

  function show() {
    rows.forEach(function (row, index) {
      row.hidden = Math.floor(index / perPage) !== page;
    });
    if (label) { label.textContent = pages > 1 ? (page + 1) + " / " + pages : ""; }
  }

  function refresh() {
    // The same page again; only its <main> is swapped. On any failure: a plain reload.
    return fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
        var main = document.getElementById("main");
        if (!fresh || !main) { throw new Error("no main"); }
        main.replaceChildren.apply(main, Array.prototype.slice.call(fresh.childNodes));
        // The heading says how far the round is ("live: N of M tables final"): it moves too.
        var freshHead = fresh.ownerDocument.querySelector(".p-head h1");
        var head = document.querySelector(".p-head h1");
        if (freshHead && head) { head.innerHTML = freshHead.innerHTML; }
        document.body.setAttribute("data-refreshed", String(Date.now()));
        layout();
        show();
      })
      .catch(function () { window.location.reload(); });
  }

  function start() {
    var seconds = parseInt(document.body.dataset.seconds || "12", 10);
    layout();
    show();
    document.body.addEventListener("live", function () { refresh(); });
    setInterval(function () {
      page += 1;
      if (page >= pages) { page = 0; refresh(); return; }
      show();
    }, seconds * 1000);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
