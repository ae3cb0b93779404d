// The feature table's operator page (templates/referee/live_operator.html): a tap answers in
// place (htmx swaps the board). The tapped button goes with the old board, so the focus goes
// where the next tap is expected: a refused play typed by hand back to its cards; else the
// seat whose turn it is, the rank of the next play built by hand, or the next deal. A focused
// element with an id (the built play's button, the undo) has the focus again already (htmx
// keeps it), and a refetch while the operator is elsewhere (the commentary line) takes none.
(function () {
  "use strict";
  var NEXT = [
    "details[data-choices][open] > summary",
    '#live-built select[name="rank"]',
    "#live-next",
  ];
  document.addEventListener("htmx:afterSettle", function (event) {
    var board = event.target;  // the new board (event.detail.elt is what asked for it)
    if (!board || board.id !== "live-board" || !board.isConnected) { return; }
    var typed = board.querySelector("#live-error ~ * details.live-typed[open] #live-typed-cards");
    if (typed) {
      typed.focus({ preventScroll: true });
      typed.select();
      return;
    }
    var active = document.activeElement;
    if (active && active !== document.body) { return; }
    for (var i = 0; i < NEXT.length; i++) {
      var target = board.querySelector(NEXT[i]);
      if (target) {
        target.focus({ preventScroll: true });
        return;
      }
    }
  });
})();
