/* Muster builder: the little JavaScript htmx does not do declaratively.
 * Everything works without it (forms post and redirect); this only enhances. */
(function () {
  "use strict";

  // Every change carries the version this tab last saw: the one hidden input that each
  // response updates out of band. A second tab with an older version gets 409.
  document.addEventListener("htmx:configRequest", function (event) {
    var current = document.getElementById("army-version");
    if (current && event.detail.verb === "post" && event.detail.parameters.version !== undefined) {
      event.detail.parameters.version = current.value;
    }
  });

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

  // A network failure or a server error: say so instead of failing silently.
  function showProblem(message) {
    var box = document.getElementById("request-problem");
    if (!box) {
      box = document.createElement("div");
      box.id = "request-problem";
      box.className = "notice error floating";
      box.setAttribute("role", "alert");
      document.body.appendChild(box);
    }
    box.textContent = message;
    box.hidden = false;
    setTimeout(function () { box.hidden = true; }, 6000);
  }
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 404) {
      showProblem("That army or unit is no longer there. Reload the page.");
    } else {
      showProblem("The change could not be saved (error " + status + "). Please try again.");
    }
  });
  document.addEventListener("htmx:sendError", function () {
    showProblem("No connection to the server: the change was not saved.");
  });

  // A refused change (400: the parser's message) is content to show in place. In DEBUG,
  // django-htmx's helper script replaces the whole page with any 400 response; it listens
  // on document, so stop the event at <body> (htmx itself goes on to swap the message).
  function keepRefusalsInPlace() {
    document.body.addEventListener("htmx:beforeOnLoad", function (event) {
      var xhr = event.detail.xhr;
      if (xhr && xhr.status === 400 && xhr.getResponseHeader("X-Muster-Refused")) {
        event.stopPropagation();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    wireCopyButtons(document);
    keepRefusalsInPlace();
  });
  document.addEventListener("htmx:afterSettle", function () { wireCopyButtons(document); });
})();
