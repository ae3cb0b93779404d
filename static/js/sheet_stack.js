// The desk's stack of score sheets (templates/manage/results/stack_sheet.html), driven from the
// keyboard: focus starts on the first box the reader marked for a person (the table number
// first for a sheet it could not read); a digit overwrites a box and moves on; Enter accepts a
// marked box as it stands (ticks its check) and goes to the next marked one, and once none is
// left it submits; arrow keys move along a deal's row (left, right) and between deals (up,
// down). Typing in a row has its rules' line said again (htmx: stack_sheet.html). Without
// this script the page still works: the checks are plain checkboxes.
(function () {
  "use strict";
  const form = document.getElementById("stack-form");
  if (!form) return;
  const boxes = Array.from(form.querySelectorAll(".stack-box input[maxlength='1']:not([disabled])"));
  const table = document.getElementById("stack-table");
  const check = (box) => box.parentElement.querySelector(".stack-check");
  const open = () => boxes.filter((b) => b.hasAttribute("data-marked") && !check(b).checked);

  function go(box) {
    if (!box) return;
    box.focus();
    if (box.select) box.select();
  }
  function nextOpen(from) {
    const left = open();
    const after = left.find((b) => boxes.indexOf(b) > boxes.indexOf(from));
    return after || left[0];
  }
  function accept(box) {
    if (box.hasAttribute("data-marked")) check(box).checked = true;
  }
  function row(box) {
    return box.closest(".stack-row");
  }
  function inRow(box) {
    return boxes.filter((b) => row(b) === row(box));
  }
  function otherRow(box, step) {
    const rows = Array.from(form.querySelectorAll(".stack-row")).filter((r) => r.querySelector("input:not([disabled])"));
    const here = rows.indexOf(row(box));
    const target = rows[here + step];
    if (!target) return null;
    const column = inRow(box).indexOf(box);
    const theirs = boxes.filter((b) => row(b) === target);
    return theirs[Math.min(column, theirs.length - 1)];
  }
  function submit() {
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  for (const box of boxes) {
    box.addEventListener("keydown", (event) => {
      const at = boxes.indexOf(box);
      if (event.key === "Enter") {
        event.preventDefault();
        accept(box);
        const next = nextOpen(box);
        if (next) go(next);
        else submit();
      } else if (/^[0-9]$/.test(event.key)) {
        event.preventDefault();
        box.value = event.key;
        // A value set by script fires no input event: the row's rules line (htmx) listens for one.
        box.dispatchEvent(new Event("input", { bubbles: true }));
        const marked = box.hasAttribute("data-marked");
        accept(box);
        go(marked ? nextOpen(box) || boxes[at + 1] : boxes[at + 1]);
      } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
        event.preventDefault();
        go(boxes[at + (event.key === "ArrowRight" ? 1 : -1)]);
      } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        go(otherRow(box, event.key === "ArrowDown" ? 1 : -1));
      } else if (event.key === "Backspace" && !box.value) {
        event.preventDefault();
        go(boxes[at - 1]);
      }
    });
  }
  if (table) {
    table.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === "ArrowDown") {
        event.preventDefault();
        // No boxes yet (a game whose boxes follow the table's seats): the table's page.
        if (!boxes.length) submit();
        else go(open()[0] || boxes[0]);
      }
    });
  }
  // Where a person is needed first: the table's number of an unread sheet, a box the engine
  // refused (its row's first box), the first marked box; otherwise the submit button, so that
  // Enter accepts a sheet read with no doubt. A read row's fault shown before submitting (a
  // "doubt": its boxes are marked) is reached in the marked boxes' order.
  const refusedRow = form.querySelector(".stack-row .problem:not(.doubt)");
  if (table && !table.value) go(table);
  else if (refusedRow) go(row(refusedRow).querySelector("input:not([disabled])"));
  else if (open().length) go(open()[0]);
  else if (table && !boxes.some((b) => b.value)) go(boxes[0]);
  else {
    const button = document.getElementById("stack-submit");
    if (button) button.focus();
  }
})();
