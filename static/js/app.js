/* The installable app: registers the service worker (pages read offline once seen), asks it
 * to keep the page when the page was opened before the worker controlled it (the first
 * page on a device, an army reached by its URL), tells it when the connection returns (it
 * then checks its kept copies again), and says plainly when the browser is offline or the
 * page shown is the copy kept on this device. Nothing here is needed for a page to work. */
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = script ? script.dataset.worker : null;
  var workers = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  // whether the worker answered this page's own request (then it kept it). Not the
  // controller: a first worker that activates while this page is still loading claims it,
  // and the page has a controller although the worker never saw it come.
  var navigation = window.performance && performance.getEntriesByType
    ? performance.getEntriesByType("navigation")[0] : null;
  var fetchedByWorker = navigation && typeof navigation.workerStart === "number"
    ? navigation.workerStart > 0 : !!(workers && workers.controller);
  var keptAt = document.documentElement.getAttribute("data-offline-copy");

  function tellWorker(message) {
    if (!workers) { return; }
    workers.ready.then(function (registration) {
      if (registration.active) { registration.active.postMessage(message); }
    }).catch(function () {});
  }

  // pages opened before the worker controlled them, until a ready worker has them: the
  // player may go on to the next page long before a first worker has installed
  var TO_KEEP = "muster-offline-keep";
  function toKeep(url) {
    var urls = [];
    try {
      urls = JSON.parse(window.localStorage.getItem(TO_KEEP) || "[]");
      if (url && urls.indexOf(url) === -1) {
        urls = urls.concat([url]).slice(-20);
        window.localStorage.setItem(TO_KEEP, JSON.stringify(urls));
      }
    } catch (e) { /* no storage (private mode, full): only this page is asked for */
      return url ? [url] : [];
    }
    return urls;
  }
  if (worker && workers) {
    if (!fetchedByWorker && !keptAt) { toKeep(window.location.href.split("#")[0]); }
    window.addEventListener("load", function () {
      workers.register(worker, { scope: "/" }).then(function () {
        return workers.ready;
      }).then(function (registration) {
        var urls = toKeep(null);
        if (urls.length && registration.active) {
          registration.active.postMessage({ type: "keep", urls: urls });
          try { window.localStorage.removeItem(TO_KEEP); } catch (e) { /* kept for next time */ }
        }
      }).catch(function () {});
    });
  }

  function showConnection() {
    var notice = document.getElementById("offline-notice");
    if (notice) { notice.hidden = navigator.onLine !== false && !keptAt; }
  }

  function showKeptCopy() {
    var note = document.getElementById("offline-copy");
    if (!keptAt || !note) { return; }
    var time = note.querySelector("time");
    var when = new Date(keptAt);
    if (time && !isNaN(when.getTime())) {
      time.setAttribute("datetime", keptAt);
      time.textContent = when.toLocaleString(undefined, {
        day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
      });
    }
    note.hidden = false;
    document.documentElement.classList.add("offline-copy");
  }

  // whether the player changed a control of the page (then it is not loaded again for them)
  function typedIn() {
    return Array.prototype.some.call(document.querySelectorAll("input, textarea, select"), function (el) {
      if (el.type === "hidden" || el.type === "submit" || el.type === "button") { return false; }
      if (el.tagName === "SELECT") {
        // none marked selected: a single choice shows its first option
        var marked = Array.prototype.some.call(el.options, function (o) { return o.defaultSelected; });
        return Array.prototype.some.call(el.options, function (o, i) {
          return o.selected !== (marked || el.multiple ? o.defaultSelected : i === 0);
        });
      }
      if (el.type === "checkbox" || el.type === "radio") { return el.checked !== el.defaultChecked; }
      return el.value !== el.defaultValue;
    });
  }

  /* A page opened from the copy, back online: the builder and the list editor draw
   * themselves again from the server (static/js/changes/follow.js); a page to read (My armies, a rule set, an army's
   * history) is loaded again once the server answers for it (asked a few times: the link
   * may come back slowly), unless the player has typed in it. A game's page keeps its own
   * work and follows the server itself. */
  var leaving = 0;
  var OWN_STATE = ["builder", "game", "list-editor"];
  function leaveCopy(tries) {
    if (!keptAt || navigator.onLine === false || typedIn()) { return; }
    if (OWN_STATE.some(function (id) { return document.getElementById(id); })) { return; }
    var mine = ++leaving;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      // the worker answers with the copy (it says when it was kept) while the network fails
      if (r.ok && !r.headers.get("X-Muster-Kept-At")) {
        if (mine === leaving && keptAt && !typedIn()) { window.location.reload(); }
        return;
      }
      throw new Error("still the copy");
    }).catch(function () {
      if (mine === leaving && tries > 1) { setTimeout(function () { leaveCopy(tries - 1); }, 2000); }
    });
  }

  window.addEventListener("online", function () {
    showConnection();
    tellWorker({ type: "online" });
    leaveCopy(5);
  });
  window.addEventListener("offline", showConnection);
  // a page opened from the copy, drawn again from the server once back online: no
  // longer the copy (static/js/changes/follow.js)
  document.addEventListener("muster:drawn-online", function () {
    keptAt = null;
    var note = document.getElementById("offline-copy");
    if (note) { note.hidden = true; }
    document.documentElement.classList.remove("offline-copy");
    showConnection();
  });
  document.addEventListener("DOMContentLoaded", function () {
    showKeptCopy();
    showConnection();
  });
})();
