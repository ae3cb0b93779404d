// The deal viewer (templates/viewer/deal.html): every step of a play log is in the page as JSON
// (#viewer-data, worded by the server in the page's language); this script draws the step asked
// for, by the buttons, the slider and the keys ← → Home End, and keeps ?step=N in the address.
// Autoplay steps on by itself (play/pause, speed; the space bar toggles it) until the last step.
// Without it the same buttons are links to ?step=N, rendered by the server.
(function () {
  "use strict";

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }

  function chips(cards, data, extra) {
    var box = el("span", "chips" + (extra ? " " + extra : ""));
    var i = 0;
    while (i < cards.length) {
      var ch = cards.charAt(i), n = 1;
      while (i + n < cards.length && cards.charAt(i + n) === ch) { n += 1; }
      var chip = el("span", "c " + (data.kinds[ch] || ""), data.labels[ch] || ch);
      if (n > 1) { chip.appendChild(el("small", null, "\u00d7" + n)); }
      box.appendChild(chip);
      i += n;
    }
    return box;
  }

  function start() {
    var dataNode = document.getElementById("viewer-data");
    var root = document.getElementById("viewer-step");
    if (!dataNode || !root) { return; }
    var data = JSON.parse(dataNode.textContent);
    var words = JSON.parse(document.getElementById("viewer-words").textContent);
    var steps = data.steps, last = steps.length - 1;
    // Each seat's cards at every step (the JSON carries them only where they change).
    var hands = [], current = {};
    steps.forEach(function (step) {
      Object.keys(step.hands).forEach(function (seat) { current[seat] = step.hands[seat]; });
      hands.push(Object.assign({}, current));
    });
    var range = document.getElementById("viewer-range");
    var position = parseInt(root.getAttribute("data-current"), 10) || 0;

    function draw(n) {
      var step = steps[n], held = hands[n];
      var box = el("div", "step" + (step.marked ? " marked" : ""));
      var action = el("p", "step-action");
      action.id = "step-action";
      if (step.action) {
        action.appendChild(el("strong", null, step.action.who));
        action.appendChild(document.createTextNode(" " + step.action.verb + " "));
        if (step.action.cards) { action.appendChild(chips(step.action.cards, data)); }
      } else {
        action.textContent = words.start;
      }
      box.appendChild(action);
      if (step.marked) {
        var mark = el("p", "mark-note", "\u26a0 " + words.marked);
        mark.id = "step-mark";
        box.appendChild(mark);
      }
      var events = el("ul", "step-events");
      events.id = "step-events";
      step.events.forEach(function (text) { events.appendChild(el("li", null, text)); });
      box.appendChild(events);
      var top = root.querySelector(".table-top").cloneNode(false);
      top.appendChild(root.querySelector(".table-top h2").cloneNode(true));
      var onTable = el("div");
      onTable.id = "table-top";
      step.table.forEach(function (play) {
        var line = el("p");
        line.appendChild(el("span", "who", play.who));
        line.appendChild(document.createTextNode(" "));
        line.appendChild(chips(play.cards, data));
        onTable.appendChild(line);
      });
      if (!step.table.length) { onTable.appendChild(el("p", "muted", words.empty)); }
      top.appendChild(onTable);
      box.appendChild(top);
      var seats = el("ol", "viewer-seats");
      seats.id = "viewer-seats";
      data.seats.forEach(function (seat) {
        var cards = held[seat.seat] || "";
        var turn = step.turn === seat.seat;
        var out = step.out.indexOf(seat.seat) >= 0;
        var item = el("li", "side-" + seat.side + (turn ? " turn" : "") + (out ? " out" : ""));
        item.setAttribute("data-seat", seat.seat);
        var head = el("div", "seat-head");
        head.appendChild(el("span", "who", seat.who));
        head.appendChild(document.createTextNode(" "));
        head.appendChild(el("span", "count", data.counts[cards.length]));
        if (turn) { head.appendChild(document.createTextNode(" ")); head.appendChild(el("span", "badge turn", words.turn)); }
        (step.badges[seat.seat] || []).forEach(function (badge) {
          head.appendChild(document.createTextNode(" "));
          head.appendChild(el("span", "badge", badge));
        });
        item.appendChild(head);
        item.appendChild(chips(cards, data, "hand"));
        seats.appendChild(item);
      });
      box.appendChild(seats);
      root.replaceChildren(box);
    }

    function go(n, push) {
      n = Math.max(0, Math.min(last, n));
      position = n;
      draw(n);
      root.setAttribute("data-current", n);
      document.getElementById("viewer-pos").textContent =
        words.pos.replace("%(n)s", n).replace("%(total)s", last);
      if (range) { range.value = n; }
      var url = new URL(window.location.href);
      url.searchParams.set("step", n);
      if (push !== false) { window.history.replaceState(null, "", url.toString()); }
      ["viewer-first", "viewer-prev", "viewer-next", "viewer-last"].forEach(function (id) {
        var link = document.getElementById(id);
        var target = { "viewer-first": 0, "viewer-prev": Math.max(n - 1, 0),
          "viewer-next": Math.min(n + 1, last), "viewer-last": last }[id];
        url.searchParams.set("step", target);
        link.setAttribute("href", url.search);
        if (target === n) { link.setAttribute("aria-disabled", "true"); } else { link.removeAttribute("aria-disabled"); }
      });
    }

    var marked = null;
    steps.forEach(function (step) { if (step.marked) { marked = step.n; } });
    var moves = {
      first: function () { return 0; },
      prev: function () { return position - 1; },
      next: function () { return position + 1; },
      last: function () { return last; },
      marked: function () { return marked === null ? position : marked; }
    };
    // Autoplay: one step every `speed` ms; a step asked for by hand pauses it.
    var playRow = document.getElementById("viewer-play-row");
    var playButton = document.getElementById("viewer-play");
    var speed = document.getElementById("viewer-speed");
    var timer = null;
    function pause() {
      if (timer !== null) { clearInterval(timer); timer = null; }
      if (playButton) {
        playButton.textContent = words.play;
        playButton.setAttribute("aria-pressed", "false");
      }
    }
    function tick() {
      if (position >= last) { pause(); return; }
      go(position + 1);
      if (position >= last) { pause(); }
    }
    function play() {
      if (position >= last) { go(0); }
      pause();
      timer = setInterval(tick, parseInt(speed.value, 10) || 1000);
      playButton.textContent = words.pause;
      playButton.setAttribute("aria-pressed", "true");
    }
    function toggle() { if (timer === null) { play(); } else { pause(); } }
    if (playRow && playButton && speed) {
      playRow.hidden = false;
      playButton.addEventListener("click", toggle);
      speed.addEventListener("change", function () { if (timer !== null) { play(); } });
    }
    document.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("[data-go]") : null;
      if (!link || !moves[link.getAttribute("data-go")]) { return; }
      event.preventDefault();
      pause();
      go(moves[link.getAttribute("data-go")]());
    });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      var tag = event.target && event.target.tagName;
      if (tag === "INPUT" && event.target !== range) { return; }
      if (tag === "SELECT" || tag === "TEXTAREA") { return; }
      if (event.key === " " && tag !== "BUTTON" && tag !== "A" && playButton) {
        event.preventDefault();
        toggle();
        return;
      }
      var key = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
      if (!key) { return; }
      event.preventDefault();
      pause();
      go(moves[key]());
    });
    if (range) {
      range.parentNode.hidden = false;
      range.addEventListener("input", function () { pause(); go(parseInt(range.value, 10)); });
    }
    go(position, false);
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
