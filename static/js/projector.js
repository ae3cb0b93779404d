// Projector pages: the rows fill the screen. The rows' type is sized to the room the viewport
// leaves under the heading (never larger than the page's own size, never below a size read from
// the back of the hall), and a long list is laid out in side-by-side columns (each with its own
// header row) when that gives larger type than one tall column: 28 unions at 1920x1080 are one
// screen, not four pages. Only what still does not fit at the smallest size pages, every
// `data-seconds`; the page is fetched again after the last one so new pairings and standings
// appear. When the event's live stream (static/js/live.js) says something changed, the rows
// are fetched at once and swapped in place: no reload, no blank screen.
(function () {
  "use strict";
  var rows = [], bodies = [], perColumn = 1, perPage = 1, pages = 1, page = 0;
  var label = null;
  var GAP = 24;          // px between columns
  var MAX_COLUMNS = 4;

  function px(value) { return parseFloat(value) || 0; }

  function measure(table) {
    // The table at a known size, natural width: width and heights scale with the type.
    var probe = 20;
    table.classList.add("p-measure");
    table.style.fontSize = probe + "px";
    var head = table.querySelector("thead");
    var sample = rows[0].getBoundingClientRect().height;
    var found = {
      width: table.getBoundingClientRect().width / probe,
      row: sample / probe,
      head: (head ? head.getBoundingClientRect().height : 0) / probe
    };
    table.classList.remove("p-measure");
    return found;
  }

  function plan(table, main) {
    var style = window.getComputedStyle(main);
    var width = main.clientWidth - px(style.paddingLeft) - px(style.paddingRight);
    var room = window.innerHeight - table.getBoundingClientRect().top - 12;
    // The page's own size (the dense layout's smaller one is only a start for the measure).
    var largest = Math.min(54, window.innerHeight * 0.046);
    var smallest = Math.max(14, window.innerHeight * 0.019);
    var size = measure(table);
    var best = { columns: 1, font: 0 };
    for (var k = 1; k <= MAX_COLUMNS && k <= rows.length; k++) {
      var tall = Math.ceil(rows.length / k);
      var byHeight = room / (tall * size.row + size.head);
      var byWidth = (width - (k - 1) * GAP) / k / size.width;
      var font = Math.min(largest, byHeight, byWidth);
      if (font > best.font + 0.5) { best = { columns: k, font: font }; }
    }
    if (best.font >= smallest) {
      best.perColumn = Math.ceil(rows.length / best.columns);
      return best;
    }
    // Too many rows for one screen: the most rows a page at the smallest type that still fits
    // the width (one column at least, whatever its width).
    var fitting = Math.max(1, Math.min(MAX_COLUMNS, Math.floor((width + GAP) / (smallest * size.width + GAP))));
    var perColumnAtSmallest = Math.max(1, Math.floor((room - size.head * smallest) / (size.row * smallest)));
    return { columns: fitting, font: smallest, perColumn: perColumnAtSmallest };
  }

  function layout() {
    var table = document.querySelector("[data-pages]");
    var main = document.getElementById("main");
    label = document.querySelector(".p-page");
    bodies = [];
    if (!table || !main) { rows = []; pages = 1; return; }
    rows = Array.prototype.slice.call(table.querySelectorAll("[data-row]"));
    rows.forEach(function (row) { row.hidden = false; });
    if (!rows.length) { pages = 1; return; }
    var chosen = plan(table, main);
    table.style.fontSize = chosen.font + "px";
    var tables = [table];
    if (chosen.columns > 1) {
      var wrap = document.createElement("div");
      wrap.className = "p-columns";
      wrap.style.gap = GAP + "px";
      table.parentNode.insertBefore(wrap, table);
      wrap.appendChild(table);
      for (var k = 1; k < chosen.columns; k++) {
        var copy = table.cloneNode(true);
        copy.removeAttribute("data-pages");
        wrap.appendChild(copy);
        tables.push(copy);
      }
    }
    document.body.setAttribute("data-columns", String(chosen.columns));
    bodies = tables.map(function (t) { return t.tBodies[0]; });
    perColumn = chosen.perColumn;
    perPage = perColumn * chosen.columns;
    pages = Math.max(1, Math.ceil(rows.length / perPage));
    if (page >= pages) { page = 0; }
  }

  function show() {
    var first = page * perPage;
    bodies.forEach(function (body, column) {
      var start = first + column * perColumn;
      body.replaceChildren.apply(body, rows.slice(start, Math.min(start + perColumn, first + perPage)));
    });
    if (label) { label.textContent = pages > 1 ? (page + 1) + " / " + pages : ""; }
  }

  function overflows() {
    return bodies.some(function (body) {
      return body.getBoundingClientRect().bottom > window.innerHeight - 4;
    });
  }

  function settle() {
    // The plan reads one row at its natural width; a name that wraps makes its row taller.
    // What still runs off the screen: smaller type, down to the smallest, then fewer rows a page.
    var tables = bodies.map(function (body) { return body.parentNode; });
    var smallest = Math.max(14, window.innerHeight * 0.019);
    var font = px(tables.length ? tables[0].style.fontSize : 0);
    for (var tries = 0; tries < 40 && bodies.length && overflows(); tries++) {
      if (font > smallest) {
        font = Math.max(smallest, font * 0.95);
        tables.forEach(function (t) { t.style.fontSize = font + "px"; });
      } else if (perColumn > 1) {
        perColumn -= 1;
        perPage = perColumn * bodies.length;
        pages = Math.max(1, Math.ceil(rows.length / perPage));
        if (page >= pages) { page = 0; }
        show();
      } else {
        break;
      }
    }
  }

  var retry = null;

  function later() {
    // The server busy or the network down: the screen keeps what it shows (a reload would put
    // the browser's error page on the hall's screen) and asks again in a few seconds.
    if (retry === null) { retry = setTimeout(function () { retry = null; refresh(); }, 5000); }
  }

  function refresh() {
    // The same page again; only its <main> is swapped. A page without it: a plain reload.
    return fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { later(); return null; }
        return response.text();
      }, function () { later(); return null; })
      .then(function (html) {
        if (html === null) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
        var main = document.getElementById("main");
        if (!fresh || !main) { throw new Error("no main"); }
        main.replaceChildren.apply(main, Array.prototype.slice.call(fresh.childNodes));
        // The heading says how far the round is ("live: N of M tables final"): it moves too.
        var freshHead = fresh.ownerDocument.querySelector(".p-head h1");
        var head = document.querySelector(".p-head h1");
        if (freshHead && head) { head.innerHTML = freshHead.innerHTML; }
        layout();
        show();
        settle();
        document.body.setAttribute("data-refreshed", String(Date.now()));
      })
      .catch(function () { window.location.reload(); });
  }

  function start() {
    var seconds = parseInt(document.body.dataset.seconds || "12", 10);
    layout();
    show();
    settle();
    document.body.setAttribute("data-laid-out", "1");
    document.body.addEventListener("live", function () { refresh(); });
    var resized = null;
    window.addEventListener("resize", function () {
      clearTimeout(resized);
      resized = setTimeout(refresh, 300);
    });
    setInterval(function () {
      page += 1;
      if (page >= pages) { page = 0; refresh(); return; }
      show();
    }, seconds * 1000);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
