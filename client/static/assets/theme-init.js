// Runs in <head> before first paint (a classic, blocking script: the CSP allows no inline script): marks
// scripting on (shows `.needs-js` controls) and applies the reader's stored theme choice.
(function () {
  var d = document.documentElement;
  d.classList.add("js");
  try {
    var t = localStorage.getItem("portico-theme");
    if (t === "dark" || t === "light") d.dataset.theme = t;
  } catch (e) {}
})();
