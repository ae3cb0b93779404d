// The organiser's announcements (matches/events/announcements.py): each one shows
// until this device dismisses it. Dismissed ids are kept in the browser (localStorage), so a
// reload or a refetched fragment keeps them hidden; a new announcement has a new id and shows.
(function () {
  "use strict";
  if (window.__announcements) { window.__announcements(); return; }
  var KEY = "gouji-dismissed-announcements";

  function read() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function write(ids) {
    try { window.localStorage.setItem(KEY, JSON.stringify(ids.slice(-200))); } catch (e) { /* private mode */ }
  }
  function apply() {
    var gone = read();
    var shown = document.querySelectorAll("[data-announcement]");
    for (var i = 0; i < shown.length; i++) {
      var hide = gone.indexOf(shown[i].getAttribute("data-announcement")) >= 0;
      if (shown[i].hidden !== hide) { shown[i].hidden = hide; }
    }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-dismiss-announcement]") : null;
    if (!button) { return; }
    var box = button.closest("[data-announcement]");
    if (!box) { return; }
    var ids = read();
    ids.push(box.getAttribute("data-announcement"));
    write(ids);
    box.hidden = true;
  });
  // Swapped in by htmx or by the projector's refresh: hide what this device dismissed.
  new MutationObserver(apply).observe(document.documentElement, { childList: true, subtree: true });
  window.__announcements = apply;
  apply();
})();
