// Projector pages: show as many rows as fit the screen, move to the next page every
// `data-seconds`, and reload after the last page so new pairings and standings appear.
(function () {
  "use strict";
  function start() {
    var table = document.querySelector("[data-pages]");
    var label = document.querySelector(".p-page");
    var seconds = parseInt(document.body.dataset.seconds || "12", 10);
    if (!table) { setTimeout(function () { location.reload(); }, seconds * 1000); return; }
    var rows = Array.prototype.slice.call(table.querySelectorAll("[data-row]"));
    var head = table.querySelector("thead");
    var room = window.innerHeight - table.getBoundingClientRect().top - (head ? 0 : 0) - 16;
    var rowHeight = rows.length ? rows[0].getBoundingClientRect().height : 1;
    var perPage = Math.max(1, Math.floor((room - (head ? head.getBoundingClientRect().height : 0)) / rowHeight));
    var pages = Math.max(1, Math.ceil(rows.length / perPage));
    var page = 0;
    function show() {
      rows.forEach(function (row, index) {
        row.hidden = Math.floor(index / perPage) !== page;
      });
      if (label) { label.textContent = pages > 1 ? (page + 1) + " / " + pages : ""; }
    }
    show();
    setInterval(function () {
      page += 1;
      if (page >= pages) { location.reload(); return; }
      show();
    }, seconds * 1000);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
