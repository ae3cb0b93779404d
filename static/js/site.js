// The site's only script besides htmx, loaded from the app so a strict Content-Security-Policy
// (script-src 'self', no inline handlers) holds: a <select data-autosubmit> submits its form
// when changed (the language switch, the standings' round choice).
document.addEventListener("change", function (event) {
  var target = event.target;
  if (target.matches && target.matches("select[data-autosubmit]") && target.form) {
    target.form.submit();
  }
});
