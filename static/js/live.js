// Live push: the page's stream of notices (<meta name="live-stream">, server-sent
// events from matches/views/live.py). A notice carries no data: this script fires a `live`
// event on <body> (at most one a second), and the page's fragments refetch themselves by the
// views they poll (hx-trigger="every Ns, live from:body"). While the stream is up, every other
// poll of elements marked data-live-poll is skipped; when it is down (the server answers 503,
// the network drops) they poll as before and the stream is tried again every 10 s.
//
// A fragment that answers its own posts in place (the feature table's operator board) carries
// data-live-version, the version of what it shows; a notice carries the version it announces
// (`v`). A notice of the version on screen is skipped (the page's own post: its answer is the
// board already), and so is one that comes while the fragment's request (a tap, a refetch) is
// in flight (htmx's hx-sync would drop it); once the answer is in, a notice of another version
// than the one shown refetches.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="live-stream"]');
  if (!meta || !window.EventSource) { return; }
  var url = meta.getAttribute("content");
  var root = document.documentElement;
  var source = null, pending = null, pendingDetail = null, last = 0, wasDown = false;

  function state(value) { root.setAttribute("data-live", value); }

  function fire(detail) {
    detail = detail || {};
    if (pending) {
      // Notices in one event: the newest version, when each says one (they come in order on
      // the channel that carries them); none when one says none (every fragment refetches).
      if (pendingDetail.v && detail.v) {
        pendingDetail = detail;
      } else if (pendingDetail.v || detail.v) {
        pendingDetail = { kind: pendingDetail.kind };
      }
      return;
    }
    pendingDetail = detail;
    var wait = Math.max(0, 1000 - (Date.now() - last));
    pending = setTimeout(function () {
      var sent = pendingDetail;
      pending = null;
      pendingDetail = null;
      last = Date.now();
      document.body.dispatchEvent(new CustomEvent("live", { detail: sent }));
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
    var notice = event.detail.triggeringEvent;
    if (elt && elt.hasAttribute("data-live-version") && notice && notice.type === "live") {
      var v = notice.detail && notice.detail.v;
      if (elt.__livePosting) {  // the answer to come shows it, or is older: see below
        elt.__liveMissed = v && elt.__liveMissed !== "?" ? v : "?";
        event.preventDefault();
        return;
      }
      if (v && v === elt.getAttribute("data-live-version")) { event.preventDefault(); return; }
    }
    if (root.getAttribute("data-live") !== "up" || event.detail.triggeringEvent ||
        !elt || !elt.hasAttribute("data-live-poll")) { return; }
    elt.__liveSkipped = !elt.__liveSkipped;
    if (elt.__liveSkipped) { event.preventDefault(); }
  });
  // A request of a versioned fragment: its refetch, or a post from inside it (a tap).
  function boxOf(event) {
    var elt = event.detail.elt;
    return elt && elt.closest ? elt.closest("[data-live-version]") : null;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var box = boxOf(event);
    if (box) { box.__livePosting = true; }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var box = boxOf(event);
    if (!box) { return; }
    box.__livePosting = false;
    var missed = box.__liveMissed;
    box.__liveMissed = null;
    if (!missed || !window.htmx) { return; }
    // Once the answer is in (and unless a tap has just aborted this refetch: its answer is
    // newer), a notice of another version than the one shown refetches.
    setTimeout(function () {
      var shown = document.getElementById(box.id);
      if (shown && !shown.__livePosting &&
          (missed === "?" || missed !== shown.getAttribute("data-live-version"))) {
        window.htmx.trigger(shown, "live-missed");
      }
    }, 0);
  });
  window.addEventListener("pagehide", function () { if (source) { source.close(); } });
  state("down");
  open();
})();
