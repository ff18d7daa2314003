/* The builder's small page helpers, none of which sends a change (static/js/changes/ does):
 * Ctrl/Cmd+Z for Undo, a link to a unit opens its card, Copy buttons, cards drawn open stay
 * open, the Undo toast fades, and an htmx request that fails (Undo, sharing) says so; a card
 * editor that cannot be fetched offline says when it will open. */
import { showProblem } from "./changes/problem.js";

// Ctrl/Cmd+Z outside text inputs steps back through the army's changes. The Undo button's
// form names the change it takes back (#undo-revision: the one this page made last, kept
// current out of band by every answer), so another tab's later edit is never the one undone.
document.addEventListener("keydown", function (event) {
  if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) { return; }
  if (event.key !== "z" && event.key !== "Z") { return; }
  var target = event.target;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) { return; }
  var undo = document.getElementById("undo-button");
  if (!undo) { return; }
  event.preventDefault();
  undo.click();
});

// A link to a unit (a problem, the error count) opens its card and moves focus there.
function openTarget(hash) {
  if (!hash || hash.length < 2) { return; }
  var target = document.getElementById(hash.slice(1));
  if (!target) { return; }
  var details = target.matches("details") ? target : target.querySelector("details");
  // Not a unit: the browser's own jump already focused a focusable target, and focusing it
  // again here (hashchange comes a moment later) would pull back a Tab the player just made.
  if (!details) { return; }
  details.open = true;
  var summary = details.querySelector("summary");
  if (summary && !details.contains(document.activeElement)) { summary.focus({ preventScroll: false }); }
}
document.addEventListener("click", function (event) {
  var link = event.target.closest ? event.target.closest("a[data-open-target]") : null;
  if (link) { setTimeout(function () { openTarget(link.hash); }, 0); }
});
window.addEventListener("hashchange", function () { openTarget(window.location.hash); });

// Copy buttons: <button data-copy="#selector" hidden> (hidden until JavaScript runs).
function wireCopyButtons(root) {
  root.querySelectorAll("[data-copy]").forEach(function (button) {
    if (button.dataset.wired) { return; }
    button.dataset.wired = "1";
    button.hidden = false;
    button.addEventListener("click", function () {
      var field = document.querySelector(button.dataset.copy);
      if (!field) { return; }
      var done = function () {
        var label = button.textContent;
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = label; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () {
          field.select(); document.execCommand("copy"); done();
        });
      } else {
        field.focus(); field.select(); document.execCommand("copy"); done();
      }
    });
  });
}

// An htmx request (Undo, sharing, the list upgrade) that failed: say so.
function isGet(event) {
  var config = event.detail.requestConfig || {};
  return (config.verb || "get").toLowerCase() === "get";
}
// A card's editor that could not be fetched (offline before this device kept it): the
// card says so, and fetches it again when the connection returns.
function editorUnreachable(event) {
  var slot = event.detail.target || event.detail.elt;
  if (!slot || !slot.classList || !slot.classList.contains("pending-editor")) { return; }
  delete slot.dataset.loading;
  slot.dataset.offline = "1";
  var note = slot.querySelector(".editor-offline");
  if (!note) {
    note = document.createElement("p");
    note.className = "editor-offline";
    slot.appendChild(note);
  }
  note.textContent = "This unit's editor opens when the connection returns.";
}
window.addEventListener("online", function () {
  document.querySelectorAll(".pending-editor[data-offline]").forEach(function (slot) {
    var details = slot.closest("details");
    if (!window.htmx || (details && !details.open)) { return; }
    delete slot.dataset.offline;
    window.htmx.ajax("GET", slot.getAttribute("hx-get"), { target: slot, swap: "outerHTML" });
  });
});
document.addEventListener("htmx:responseError", function (event) {
  if (isGet(event)) { editorUnreachable(event); return; }
  var status = event.detail.xhr ? event.detail.xhr.status : 0;
  if (status === 404) {
    showProblem("That army or unit is no longer there. Reload the page.");
  } else {
    showProblem("That could not be done (error " + status + "). Please try again.");
  }
});
// Builder edits never come here (the change module keeps them until they land): this is
// Undo, sharing, a list upgrade, which need the server there and then.
document.addEventListener("htmx:sendError", function (event) {
  if (isGet(event)) { editorUnreachable(event); return; }
  showProblem("That needs the connection: nothing was changed. Try again when you are back online.");
});

// A refused undo (400/409: the message) is content to show in place. In DEBUG,
// django-htmx's helper script replaces the whole page with any 400 response; it listens
// on document, so stop the event at <body> (htmx itself goes on to swap the message).
function keepRefusalsInPlace() {
  document.body.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && (xhr.status === 400 || xhr.status === 409) && xhr.getResponseHeader("X-Muster-Refused")) {
      event.stopPropagation();
    }
  });
}

// A swapped-in card drawn open (the one just added, or being edited) stays open: a
// <details name=...> accordion closes an open newcomer while the old copy is still there.
function reopenCards() {
  document.querySelectorAll("details[data-open]").forEach(function (details) {
    details.open = true;
    details.removeAttribute("data-open");
  });
}

// The "Undo" toast goes after a while (Undo and History stay at the top of the page).
var toastTimer = null;
function fadeToast() {
  var toast = document.getElementById("toast");
  if (!toast || !toast.firstElementChild) { return; }
  clearTimeout(toastTimer);
  toastTimer = setTimeout(function () {
    if (toast.contains(document.activeElement)) { fadeToast(); return; }
    toast.textContent = "";
  }, 12000);
}

document.addEventListener("DOMContentLoaded", function () {
  wireCopyButtons(document);
  keepRefusalsInPlace();
  openTarget(window.location.hash);
});
document.addEventListener("htmx:afterSwap", reopenCards);
document.addEventListener("htmx:afterSettle", function () {
  fadeToast();
  reopenCards();
  wireCopyButtons(document);
});
