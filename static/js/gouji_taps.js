/* Gou Ji's deal form on the phone: the seat taps (the finishing order) and the extra
 * burn and suffocation rows are kept and drawn here, so they work with no connection at all.
 *
 * The form stays a plain form: without JavaScript every tap posts it and the server draws the
 * order (matches/games/gouji/referee_form.py). With this script a tap only changes the hidden
 * `finish` field ("3,1,5") and redraws the buttons; the change event that follows re-checks the
 * verdict (when online) and lets static/js/table.js keep the entry. When table.js moves the form
 * on to the next deal offline, it sends `deal:blank`, and the taps are drawn again from the
 * blanked fields, the extra rows go, and the tributes owed say they are not known yet. */
(function () {
  "use strict";
  function grid(f) { return f && f.querySelector(".tap-grid"); }
  // The table's seats are its seat buttons: six, or eight at an eight-player table (R44).
  function seatCount(f) {
    var g = grid(f);
    return g ? g.querySelectorAll("button.tap").length : 0;
  }
  function finishInput(f) { return f.querySelector("input[name='finish']"); }
  function order(f) {
    var input = finishInput(f);
    var seen = {};
    var SEATS = seatCount(f);
    return (input ? input.value : "").split(",").map(function (v) { return parseInt(v, 10); })
      .filter(function (s) {
        var ok = s >= 1 && s <= SEATS && !seen[s];
        seen[s] = true;
        return ok;
      });
  }
  function fill(template, n) { return (template || "{n}").replace("{n}", String(n)); }

  function draw(f) {
    var g = grid(f);
    if (!g) return;
    var finish = order(f);
    var names = {};
    Array.prototype.forEach.call(g.querySelectorAll("button.tap"), function (button) {
      var seat = parseInt(button.dataset.seat, 10);
      var place = finish.indexOf(seat) + 1;
      names[seat] = button.dataset.name || "";
      button.classList.toggle("tapped", place > 0);
      var span = button.querySelector(".place");
      if (place) {
        button.setAttribute("aria-pressed", "true");
        if (!span) {
          span = document.createElement("span");
          span.className = "place";
          button.appendChild(document.createTextNode(" "));
          button.appendChild(span);
        }
        span.textContent = fill(g.dataset.place, place);
      } else {
        button.removeAttribute("aria-pressed");
        if (span) span.remove();
      }
    });
    var line = f.querySelector("#finish-order");
    if (line) {
      line.textContent = finish.length ? finish.map(function (seat, k) {
        return (k + 1) + ". " + fill(g.dataset.seatLabel, seat) + (names[seat] ? " " + names[seat] : "");
      }).join(" · ") : (g.dataset.none || "");
    }
  }

  function changed(input) { input.dispatchEvent(new Event("change", {bubbles: true})); }

  function tap(f, value) {
    var input = finishInput(f);
    if (!input) return;
    var finish = order(f);
    if (value === "undo") finish.pop();
    else if (value === "reset") finish = [];
    else {
      var seat = parseInt(value, 10);
      var SEATS = seatCount(f);
      if (!(seat >= 1 && seat <= SEATS) || finish.indexOf(seat) >= 0 || finish.length >= SEATS) return;
      finish.push(seat);
    }
    input.value = finish.join(",");
    draw(f);
    changed(input);
  }

  // Another burn or suffocation row: a copy of the last one, blank, with the next index.
  function addRow(f, kind) {
    var prefix = kind === "burn" ? "burn" : "suff";
    var count = f.querySelector("input[name='" + prefix + "_rows']");
    var rows = f.querySelectorAll("[data-row='" + prefix + "']");
    if (!count || !rows.length || rows.length >= 12) return;
    var last = rows[rows.length - 1];
    var index = rows.length;
    var row = last.cloneNode(true);
    Array.prototype.forEach.call(row.querySelectorAll("[name]"), function (el) {
      el.name = el.name.replace(/^(burn|suff)_\d+_/, prefix + "_" + index + "_");
      if (el.tagName === "SELECT") {
        Array.prototype.forEach.call(el.options, function (o) { o.selected = o.defaultSelected = false; });
        el.selectedIndex = 0;
      } else el.value = "";
    });
    last.parentNode.insertBefore(row, last.nextSibling);
    count.value = String(index + 1);
    changed(count);
    var first = row.querySelector("select");
    if (first) first.focus();
  }

  // The rows beyond the form's row counts (as blanked by table.js) go.
  function trimRows(f) {
    ["burn", "suff"].forEach(function (prefix) {
      var count = f.querySelector("input[name='" + prefix + "_rows']");
      var keep = Math.max(1, parseInt(count ? count.value : "1", 10) || 1);
      Array.prototype.forEach.call(f.querySelectorAll("[data-row='" + prefix + "']"), function (row, k) {
        if (k >= keep) row.remove();
      });
    });
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest("button[name='tap'], button[name='add']");
    var f = button && button.form;
    if (!f || !grid(f)) return;
    e.preventDefault();
    e.stopPropagation();
    if (button.name === "tap") tap(f, button.value);
    else addRow(f, button.value);
  }, true);

  document.addEventListener("deal:blank", function (e) {
    var f = e.target;
    if (!grid(f)) return;
    trimRows(f);
    draw(f);
    var owed = document.getElementById("tributes-owed");
    if (owed && owed.dataset.unknown) {
      owed.textContent = "";
      var p = document.createElement("p");
      p.className = "muted";
      p.textContent = owed.dataset.unknown;
      owed.appendChild(p);
    }
  });
})();
