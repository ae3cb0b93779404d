// The site's only script besides htmx, loaded from the app so a strict Content-Security-Policy
// (script-src 'self', no inline handlers) holds: a <select data-autosubmit> submits its form
// when changed (the language switch, the standings' round choice).
document.addEventListener("change", function (event) {
  var target = event.target;
  if (target.matches && target.matches("select[data-autosubmit]") && target.form) {
    target.form.submit();
  }
});

// The event wizard: a game that allows no team entry unticks it (its allowed entry types are
// on the game's radio buttons, from the game's adapter).
document.addEventListener("change", function (event) {
  var target = event.target;
  if (!(target.matches && target.matches("input[name='game'][data-entry-types]") && target.form)) return;
  var allowed = JSON.parse(target.dataset.entryTypes || "{}")[target.value] || [];
  var checked = target.form.querySelector("input[name='entry_type']:checked");
  if (allowed.length && (!checked || allowed.indexOf(checked.value) < 0)) {
    var first = target.form.querySelector("input[name='entry_type'][value='" + allowed[0] + "']");
    if (first) first.checked = true;
  }
});

// Find my table: a query typed before htmx was ready got no live answer. Once htmx has set the
// page up, an input[data-search-pending] whose value differs from what the server answered asks
// for its answer, by the input's own "search-pending" event (not the browser's "search", which
// Enter fires too: htmx answered it with a fragment request beside the page's).
if (window.htmx) {
  window.htmx.onLoad(function (root) {
    var inputs = root.querySelectorAll ? root.querySelectorAll("input[data-search-pending]") : [];
    inputs.forEach(function (input) {
      if (input.dataset.answered === undefined) input.dataset.answered = input.defaultValue;
      if (input.value.trim() && input.value !== input.defaultValue) {
        window.htmx.trigger(input, "search-pending");
      }
    });
  });
}

// Enter and the button submit the search form as a plain GET, the whole page, and only that: a
// live search the typing has set going (htmx waits 250 ms after a key) is not sent once the form
// is submitted. A page the browser brings back (the back button) searches live again.
//
// Without the network (the hall's Wi-Fi gone), an answer on screen belongs to the last query
// that reached the server: once the box says something else it is greyed at once, and a search
// that could not be sent says so, instead of leaving the old tables under the new name. Enter
// then asks again live, rather than leaving the page for the browser's error page.
var findState = { offline: false };

function findParts(input) {
  return {
    results: document.getElementById("find-results"),
    notice: document.getElementById("find-offline"),
    input: input,
  };
}

function markFindStale(parts, stale) {
  if (!parts.results) return;
  parts.results.classList.toggle("find-stale", stale);
  if (stale) parts.results.setAttribute("aria-busy", "true");
  else parts.results.removeAttribute("aria-busy");
}

function showFindOffline(parts, offline) {
  findState.offline = offline;
  if (parts.notice) parts.notice.hidden = !offline;
  if (offline) markFindStale(parts, true);
}

document.addEventListener("input", function (event) {
  var input = event.target;
  if (!(input.matches && input.matches("input[data-search-pending]"))) return;
  markFindStale(findParts(input), input.value !== input.dataset.answered);
});

["htmx:sendError", "htmx:responseError", "htmx:timeout"].forEach(function (name) {
  document.addEventListener(name, function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.matches && elt.matches("input[data-search-pending]")) {
      showFindOffline(findParts(elt), true);
    }
  });
});

document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail && event.detail.target;
  if (!target || target.id !== "find-results") return;
  var input = document.querySelector("input[data-search-pending]");
  if (input) input.dataset.answered = input.value;
  var parts = findParts(input);
  showFindOffline(parts, false);
  markFindStale(parts, false);
});

document.addEventListener("submit", function (event) {
  var form = event.target;
  var inputs = form.querySelectorAll ? form.querySelectorAll("input[data-search-pending]") : [];
  if (inputs.length && window.htmx && (findState.offline || navigator.onLine === false)) {
    event.preventDefault();
    showFindOffline(findParts(inputs[0]), true);
    window.htmx.trigger(inputs[0], "search-pending");
    return;
  }
  inputs.forEach(function (input) { input.dataset.submitted = ""; });
});
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail && event.detail.elt;
  if (elt && elt.matches && elt.matches("input[data-search-pending][data-submitted]")) {
    event.preventDefault();
  }
});
window.addEventListener("pageshow", function () {
  document.querySelectorAll("input[data-search-pending][data-submitted]").forEach(function (input) {
    delete input.dataset.submitted;
  });
});

// A copy button (button[data-copy="<input id>"]): the link is selected in its box whatever
// happens, then copied by the Clipboard API (https or localhost only), else by the old
// execCommand; when neither works the button says the text is selected, to long-press.
document.addEventListener("click", function (event) {
  var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
  if (!button) return;
  var box = document.getElementById(button.dataset.copy);
  if (!box) return;
  box.focus();
  box.select();
  if (box.setSelectionRange) box.setSelectionRange(0, box.value.length);
  var done = function (ok) {
    button.textContent = ok ? button.dataset.copied : button.dataset.select;
    button.classList.toggle("copied", ok);
  };
  var legacy = function () {
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    done(ok);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(box.value).then(function () { done(true); }, legacy);
  } else {
    legacy();
  }
});
