// Printing: when the polling progress panel reports "ready", start the download
// once. A file, not inline script: the Content-Security-Policy allows only our own files.
(function () {
  "use strict";
  function start() {
    var link = document.querySelector("#print-progress a[data-auto-download]:not([data-started])");
    if (link) {
      link.setAttribute("data-started", "");
      link.click();
    }
  }
  document.addEventListener("htmx:afterSettle", start);
})();
