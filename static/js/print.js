// Printing: when the polling progress panel reports "ready", start the download
// once. A file, not inline script: the Content-Security-Policy allows only our own files.
//
// Offline, the builder's Print (and its PDF links) cannot ask the server: the order of
// battle kept on this device (static/js/sw.js keeps it with the army's page, and says which
// army version it was made from) is offered only when it is of the army as shown, with no
// change waiting to be saved. Otherwise the panel says so and offers the browser's print of
// this page, whose print stylesheet draws it as a roster from what is on screen. Online,
// Print waits for the page's changes still on their way, so it prints the army as shown.
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

  var KEPT_VERSION = "X-Muster-Roster-Of"; // "v<version>", set by the service worker

  function offline() { return navigator.onLine === false; }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    if (text) { made.textContent = text; }
    return made;
  }

  // the army on screen: its version, and whether anything drawn is not saved yet
  function changesWaiting() {
    var pending = document.getElementById("pending-changes");
    return !!(pending && !pending.hidden && /not yet saved/.test(pending.textContent))
      || !!document.querySelector("#builder [data-optimistic], #builder [data-optimistic-gone]");
  }

  function onScreen() {
    var version = document.getElementById("army-version");
    return { version: version ? Number(version.value) : 0, waiting: changesWaiting() };
  }

  function show(status, parts) {
    var box = element("div", "print-offline notice");
    box.setAttribute("role", "status");
    parts.forEach(function (part) { box.appendChild(part); });
    status.replaceChildren(box);
  }

  function printPage() {
    var button = element("button", "secondary", "Print this page");
    button.type = "button";
    button.setAttribute("data-print-page", "");
    return button;
  }

  function offerKept(status, url, sheet) {
    var screen = onScreen();
    var kept = sheet === "roster" && window.caches
      ? window.caches.match(url).catch(function () { return null; }) : Promise.resolve(null);
    kept.then(function (copy) {
      var made = copy ? copy.headers.get(KEPT_VERSION) || "" : "";
      var version = /^v(\d+)$/.exec(made);
      var same = copy && version && Number(version[1]) === screen.version && !screen.waiting;
      if (same) {
        var link = element("a", "button", "Download the kept order of battle (PDF)");
        link.href = url;
        link.setAttribute("download", "");
        show(status, [element("p", "", "Offline: the order of battle kept on this device is of the army as shown (version "
          + screen.version + ")."), link]);
        return;
      }
      var why;
      if (!copy) {
        why = sheet === "roster" ? "Offline: no order of battle of this army is kept on this device."
          : "Offline: the quick-reference sheets are not kept on this device.";
      } else {
        why = "Offline: the order of battle kept on this device is of "
          + (version ? "version " + version[1] : "an earlier version")
          + ", not of the army as shown (version " + screen.version
          + (screen.waiting ? ", with changes not yet saved" : "") + ").";
      }
      show(status, [element("p", "", why),
        element("p", "", "Print this page instead: it is drawn from the army as it is on screen."), printPage()]);
    });
  }

  function builderPdf(sheet) {
    var link = document.querySelector("#files a[href$='/" + sheet + ".pdf']");
    return link ? link.getAttribute("href") : null;
  }

  /* Online, with changes of this page still on their way: the server would print the
   * version before them. The print (the panel's form, or a PDF link) waits until they are
   * saved, or the player asks for the saved version as it is, then goes as asked. */
  var waiting = null; // what goes once the changes are saved
  var bypass = false; // the next submit of the panel goes as it is (saved, or asked for)

  function printWhenSaved(status, then) {
    var pending = document.getElementById("pending-changes");
    if (!pending) { then(); return; }
    if (waiting) { waiting.then = then; return; }
    var now = element("button", "secondary", "Print the last saved version now");
    now.type = "button";
    show(status, [element("p", "", "Saving your changes first: the PDF is made of the army as shown."), now]);
    var watch = new MutationObserver(function () { if (!changesWaiting()) { go(); } });
    waiting = { then: then };
    function go() {
      watch.disconnect();
      var chosen = waiting;
      waiting = null;
      if (chosen) { chosen.then(); }
    }
    watch.observe(pending, { attributes: true, childList: true, characterData: true, subtree: true });
    now.addEventListener("click", go);
  }

  // the print panel's form: offline answered here instead of by the server; online it waits
  // for the changes still on their way
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("print-panel")) { return; }
    var status = document.getElementById("print-status");
    if (!offline()) {
      if (bypass || !status || !changesWaiting()) { bypass = false; return; }
      event.preventDefault();
      event.stopPropagation();
      printWhenSaved(status, function () {
        if (!form.isConnected) { return; }
        bypass = true;
        form.requestSubmit();
      });
      return;
    }
    var sheet = (form.querySelector("[name=sheet]") || {}).value || "roster";
    var url = builderPdf(sheet);
    if (!status || !url) { return; }
    event.preventDefault();
    event.stopPropagation();
    offerKept(status, url, sheet);
  }, true);

  // the panel's PDF links: offline the same question before a kept file is opened; online
  // they wait for the changes still on their way
  document.addEventListener("click", function (event) {
    var target = event.target;
    var print = target.closest ? target.closest("[data-print-page]") : null;
    if (print) { window.print(); return; }
    var link = target.closest ? target.closest("#files a[href$='.pdf']") : null;
    var status = document.getElementById("print-status");
    if (!link || !status || link.closest("#print-status")) { return; }
    var href = link.getAttribute("href");
    if (!offline()) {
      if (!changesWaiting()) { return; }
      event.preventDefault();
      printWhenSaved(status, function () { window.location.assign(href); });
      status.scrollIntoView({ block: "nearest" });
      return;
    }
    var sheet = /qrs\.pdf$/.test(href) ? "qrs" : "roster";
    event.preventDefault();
    offerKept(status, href, sheet);
    status.scrollIntoView({ block: "nearest" });
  }, true);
})();
