// The feature table's operator page (templates/referee/live_operator.html): a tap answers in
// place (htmx swaps the board). The tapped button is gone with the old board, so the focus goes
// where the next tap is expected: a refused play typed by hand back to its cards; the seat whose
// turn it is; the rank of the next play built by hand; the next deal. An element with an id that
// had the focus (the built play's button, the undo) has it again already (htmx keeps it).
(function () {
  "use strict";
  var NEXT = [
    "details.live-typed[open] #live-typed-cards",
    "details[data-choices][open] > summary",
    '#live-built select[name="rank"]',
    "#live-next",
  ];
  document.addEventListener("htmx:afterSettle", function (event) {
    var board = event.target;  // the new board (detail.elt is what asked)
    if (!board || board.id !== "live-board" || !board.isConnected) { return; }
    var active = document.activeElement;
    if (active && active !== document.body && board.contains(active)) { return; }
    if (active && active !== document.body && !board.contains(active) && active.isConnected) {
      return;  // the operator is elsewhere (the commentary line): a refetch takes no focus
    }
    for (var i = 0; i < NEXT.length; i++) {
      var target = board.querySelector(NEXT[i]);
      if (target) {
        target.focus({ preventScroll: true });
        if (target.select) { target.select(); }
        return;
      }
    }
  });
})();
