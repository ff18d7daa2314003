/* The installable app: registers the service worker (pages read offline once seen) and
 * says plainly when the browser is offline. Nothing here is needed for a page to work. */
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = script ? script.dataset.worker : null;
  if (worker && "serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(worker, { scope: "/" }).catch(function () {});
    });
  }
  function showConnection() {
    var notice = document.getElementById("offline-notice");
    if (notice) { notice.hidden = navigator.onLine !== false; }
  }
  window.addEventListener("online", showConnection);
  window.addEventListener("offline", showConnection);
  document.addEventListener("DOMContentLoaded", showConnection);
})();
