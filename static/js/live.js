// Live push: the page's stream of notices (<meta name="live-stream">, server-sent
// events from matches/views/live.py). A notice carries no data: this script fires a `live`
// event on <body> (at most one a second), and the page's fragments refetch themselves by the
// views they poll (hx-trigger="every Ns, live from:body"). While the stream is up, every other
// poll of elements marked data-live-poll is skipped; when it is down (the server answers 503,
// the network drops) they poll as before and the stream is tried again every 10 s.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="live-stream"]');
  if (!meta || !window.EventSource) { return; }
  var url = meta.getAttribute("content");
  var root = document.documentElement;
  var source = null, pending = null, last = 0, wasDown = false;

  function state(value) { root.setAttribute("data-live", value); }

  function fire(detail) {
    if (pending) { return; }
    var wait = Math.max(0, 1000 - (Date.now() - last));
    pending = setTimeout(function () {
      pending = null;
      last = Date.now();
      document.body.dispatchEvent(new CustomEvent("live", { detail: detail || {} }));
    }, wait);
  }

  function open() {
    source = new EventSource(url);
    source.addEventListener("hello", function () {
      state("up");
      // Notices may have been missed while the stream was down.
      if (wasDown) { wasDown = false; fire({ kind: "reconnected" }); }
    });
    source.onmessage = function (event) {
      var detail = {};
      try { detail = JSON.parse(event.data); } catch (e) { detail = {}; }
      fire(detail);
    };
    source.onerror = function () {
      state("down");
      wasDown = true;
      if (source && source.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(open, 10000);
      }
    };
  }

  // While the stream is up, every other poll (htmx calls it with no triggering event) is
  // skipped: half the requests, and a notice lost on the way still shows within two periods.
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    if (root.getAttribute("data-live") !== "up" || event.detail.triggeringEvent ||
        !elt || !elt.hasAttribute("data-live-poll")) { return; }
    elt.__liveSkipped = !elt.__liveSkipped;
    if (elt.__liveSkipped) { event.preventDefault(); }
  });
  window.addEventListener("pagehide", function () { if (source) { source.close(); } });
  state("down");
  open();
})();
