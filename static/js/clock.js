// The hall's clock: counts down the seconds the server said were left when the page
// was served (so a phone's wrong clock does not matter), and asks the round's clock URL again
// every 30 seconds for a pause, a resumption or an extension. Loaded once per page.
(function () {
  "use strict";
  if (window.goujiClock) { return; }
  window.goujiClock = true;
  var POLL_MS = 30000;

  function text(seconds) {
    seconds = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }

  function Clock(el) {
    this.el = el;
    this.time = el.querySelector("[data-clock-time]");
    this.note = el.querySelector("[data-clock-note]");
    this.set(el.dataset.state, parseInt(el.dataset.left || "0", 10));
  }
  Clock.prototype.set = function (state, left) {
    this.state = state;
    this.left = left;
    this.at = performance.now();
    this.tick();
  };
  Clock.prototype.remaining = function () {
    if (this.state !== "running") { return this.left; }
    return Math.max(0, this.left - (performance.now() - this.at) / 1000);
  };
  Clock.prototype.tick = function () {
    var left = this.remaining();
    var state = this.state === "running" && left <= 0 ? "over" : this.state;
    this.el.dataset.state = state;
    this.el.className = this.el.className.replace(/\bclock-(running|paused|over|off)\b/g, "").trim() + " clock-" + state;
    this.time.textContent = state === "over" ? this.el.dataset.over : text(left);
    if (this.note) { this.note.textContent = state === "paused" ? this.el.dataset.paused : ""; }
    this.el.hidden = state === "off";
  };
  Clock.prototype.poll = function () {
    var self = this;
    if (!self.el.dataset.url || !window.fetch) { return; }
    fetch(self.el.dataset.url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) { self.set(data.state, data.seconds_left || 0); } })
      .catch(function () { /* offline: keep counting */ });
  };

  function start() {
    var clocks = Array.prototype.map.call(document.querySelectorAll("[data-clock]"), function (el) { return new Clock(el); });
    if (!clocks.length) { return; }
    setInterval(function () { clocks.forEach(function (c) { c.tick(); }); }, 250);
    setInterval(function () { clocks.forEach(function (c) { c.poll(); }); }, POLL_MS);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
