/* Muster builder: the little JavaScript htmx does not do declaratively.
 * Everything works without it (forms post and redirect); this only enhances.
 *
 * The change protocol (see armybuilder/armies/changes.py): a save sends ONE field, named
 * by its control's wrapper ([data-field]), with the value it was made from (data-from,
 * JSON) and the version the page's units were drawn at (#army-version). The control is
 * never redrawn by its own save; the saved value comes back in X-Muster-Value and
 * becomes the next change's "from". Requests run one at a time (hx-sync on #builder), so
 * a late response never lands after a newer one. */
(function () {
  "use strict";

  function wrapperOf(element) {
    return element && element.closest ? element.closest("[data-field]") : null;
  }

  // Which control a request saves: the element that fired it (an input's own trigger, or
  // the change event that bubbled to its form).
  function sourceOf(detail) {
    var event = detail.triggeringEvent;
    var target = event && event.target && event.target.nodeType === 1 ? event.target : null;
    if (event && event.type === "submit") {
      // Enter in a field submits its form: the change is that field's
      var active = document.activeElement;
      if (active && detail.elt.contains(active)) { return active; }
    }
    return target || detail.elt;
  }

  function onceKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (detail.verb !== "post") { return; }
    var data = detail.formData;
    var current = document.getElementById("army-version");
    // an action sent again after a lost connection keeps the version it was made on
    var replay = detail.headers && detail.headers["X-Muster-Replay"];
    if (current && data.has("version") && !replay) { data.set("version", current.value); }
    var source = sourceOf(detail);
    var wrap = source && source.matches && source.matches("input, select, textarea") ? wrapperOf(source) : null;
    if (!wrap || !wrap.dataset.param) {
      // An action (add, delete, move, a roll...) carries a key of its own: the server
      // applies each key once, so the same request arriving twice (sent again after an
      // answer that never came) adds one unit, not two. A replay keeps its first key.
      if (!replay) { data.set("_once", onceKey()); }
      return;
    }
    if (wrap.classList.contains("conflicted")) {
      // the player has a choice to make first (Keep mine / Use theirs beside the field)
      event.preventDefault();
      return;
    }
    var param = wrap.dataset.param;
    Array.from(data.keys()).forEach(function (key) {
      if (key === "csrfmiddlewaretoken" || key === "version") { return; }
      if (key !== param && key.indexOf(param + ".") !== 0) { data.delete(key); }
    });
    data.set("_field", wrap.dataset.field);
    data.set("_from", wrap.dataset.from);
    if (wrap.dataset.sent) { data.set("_sent", wrap.dataset.sent); }
    // this request's own values, named if a newer keystroke replaces it in flight
    var own = new URLSearchParams();
    data.forEach(function (value, key) {
      if ((key === param || key.indexOf(param + ".") === 0) && typeof value === "string") { own.append(key, value); }
    });
    detail.musterValues = own.toString();  // the request's config: read again at beforeSend
    // a second save since the player came into this field: the server may keep the
    // keystrokes as one change in the history
    if (wrap.dataset.typing === "1") { data.set("_typing", "1"); }
    wrap.dataset.typing = "1";
    if (!wrap.id) { wrap.id = "w-" + Math.random().toString(36).slice(2); }
    detail.headers["X-Muster-Control"] = wrap.id;
    detail.headers["X-Muster-Seq"] = wrap.dataset.dirty || "";
  });

  // Each keystroke's save replaces the one still in flight for the same field: that one
  // is aborted (its values go with the next save as "_sent", so the server knows them as
  // this page's own, whether or not it saved them), and the queue moves on at once.
  var inFlight = {};  // wrapper id -> {elt, values}
  document.addEventListener("htmx:beforeSend", function (event) {
    var config = event.detail.requestConfig;
    var id = config && config.headers ? config.headers["X-Muster-Control"] : null;
    if (id) { inFlight[id] = { elt: event.detail.elt, values: config.musterValues || "" }; }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var headers = event.detail.requestConfig && event.detail.requestConfig.headers;
    var id = headers ? headers["X-Muster-Control"] : null;
    if (id && inFlight[id] && inFlight[id].elt === event.detail.elt) { delete inFlight[id]; }
  });
  function replaceInFlight(event) {
    var wrap = wrapperOf(event.target);
    var flying = wrap && wrap.id ? inFlight[wrap.id] : null;
    if (!flying || !window.htmx) { return; }
    var sent = wrap.dataset.sent ? JSON.parse(wrap.dataset.sent) : [];
    sent.push(flying.values);
    wrap.dataset.sent = JSON.stringify(sent.slice(-20));
    wrap.dataset.replaced = "1";  // pending.js: an abort of ours, not a failure
    delete inFlight[wrap.id];
    // requests take turns on the hx-sync element (#builder), which holds the one in flight
    var holder = flying.elt.closest("[hx-sync]") || flying.elt;
    window.htmx.trigger(holder, "htmx:abort");
  }
  document.addEventListener("input", replaceInFlight, true);

  // A control the player changed and whose save has not answered yet is "dirty": nothing
  // the server sends meanwhile (a redrawn menu of allowed values) may replace it.
  var seq = 0;
  function markDirty(event) {
    var wrap = wrapperOf(event.target);
    if (wrap) { wrap.dataset.dirty = String(++seq); }
  }
  // coming into a field starts a new change (see _typing above)
  document.addEventListener("focusin", function (event) {
    var wrap = wrapperOf(event.target);
    if (wrap) { delete wrap.dataset.typing; }
  });
  document.addEventListener("input", markDirty, true);
  document.addEventListener("change", markDirty, true);
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.dataset && target.dataset.field && target.dataset.dirty) {
      event.detail.shouldSwap = false;
    }
  });

  // A redrawn card (the builder set other fields along with a change) must not lose what
  // the player typed meanwhile: put the unsaved values back and send them.
  var carried = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    carried = null;
    if (!target || !target.matches || !target.matches("li.item")) { return; }
    target.querySelectorAll("[data-field][data-dirty]").forEach(function (wrap) {
      wrap.querySelectorAll("input[id]:not([type=hidden]):not([type=checkbox]), textarea[id]").forEach(function (control) {
        carried = carried || [];
        carried.push([control.id, control.value]);
      });
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!carried) { return; }
    var values = carried;
    carried = null;
    setTimeout(function () {  // once htmx has wired the new controls
      values.forEach(function (pair) {
        var control = document.getElementById(pair[0]);
        if (control && control.value !== pair[1]) {
          control.value = pair[1];
          control.dispatchEvent(new Event("change", { bubbles: true }));
        }
      });
    }, 50);
  });

  function markInvalid(wrap, invalid) {
    wrap.classList.toggle("invalid", invalid);
    wrap.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (control) {
      if (invalid) { control.setAttribute("aria-invalid", "true"); }
      else { control.removeAttribute("aria-invalid"); }
    });
    if (!invalid) {
      var msg = wrap.querySelector(".field-msg");
      if (msg) { msg.textContent = ""; }
    }
    showUnsaved();
  }

  // The totals say "not saved" while any field holds a value the server refused.
  function showUnsaved() {
    var box = document.getElementById("unsaved");
    if (!box) { return; }
    var count = document.querySelectorAll("[data-field].invalid, [data-field].conflicted").length;
    box.hidden = count === 0;
    box.textContent = count === 1 ? "1 change not saved: see the marked field"
      : count + " changes not saved: see the marked fields";
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    var xhr = detail.xhr;
    var config = detail.requestConfig;
    var id = config && config.headers ? config.headers["X-Muster-Control"] : null;
    var wrap = id ? document.getElementById(id) : null;
    if (!wrap || !xhr) { return; }
    var saved = xhr.getResponseHeader("X-Muster-Value");
    var sent = config.headers["X-Muster-Seq"];
    if (sent && wrap.dataset.dirty === sent) { delete wrap.dataset.dirty; }
    if (xhr.status === 200 && saved !== null) {
      wrap.dataset.from = saved;
      delete wrap.dataset.sent;  // the server's value now: what was sent before is settled
      wrap.classList.remove("conflicted");
      markInvalid(wrap, false);
    } else if (xhr.status === 400) {
      markInvalid(wrap, true);
    } else if (xhr.status === 409 && xhr.getResponseHeader("X-Muster-Conflict") !== null) {
      wrap.classList.add("conflicted");
      showUnsaved();
    }
  });

  // A conflict: the field changed elsewhere. "Keep mine" saves this page's value over
  // theirs; "Use theirs" shows their value and makes it the one to change from.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-conflict]") : null;
    if (!button) { return; }
    var wrap = wrapperOf(button);
    if (!wrap) { return; }
    var theirs = button.dataset.theirs;
    wrap.dataset.from = theirs;
    wrap.classList.remove("conflicted");
    var control = wrap.querySelector("input:not([type=hidden]), select, textarea");
    if (button.dataset.conflict === "theirs") {
      var value = JSON.parse(theirs);
      if (control && control.type === "checkbox") {
        control.checked = value === true || (value !== null && typeof value === "object");
      } else if (control && (value === null || typeof value !== "object")) {
        control.value = value === null ? "" : String(value);
      } else {
        window.location.reload();
        return;
      }
      markInvalid(wrap, false);
      return;
    }
    markInvalid(wrap, false);
    if (control) { control.dispatchEvent(new Event("change", { bubbles: true })); }
  });

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

  // Leaving with a refused value still in a field: say it is not saved.
  window.addEventListener("beforeunload", function (event) {
    if (document.querySelector("[data-field].invalid, [data-field].conflicted")) {
      event.preventDefault();
      event.returnValue = "";
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
    var config = event.detail.requestConfig;
    if (status >= 500 && config && config.headers && config.headers["X-Muster-Control"]) { return; }
    if (status === 404) {
      showProblem("That army or unit is no longer there. Reload the page.");
    } else {
      showProblem("The change could not be saved (error " + status + "). Please try again.");
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    // a field's save is marked on the field and kept to send again (pending.js)
    var config = event.detail.requestConfig;
    if (config && config.headers && config.headers["X-Muster-Control"]) { return; }
    // the builder's actions wait and are sent again (pending.js)
    var builder = document.getElementById("builder");
    if (builder && event.detail.elt && builder.contains(event.detail.elt)) { return; }
    showProblem("No connection to the server: the change was not saved.");
  });

  // A refused change (400: the parser's message) is content to show in place. In DEBUG,
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

  document.addEventListener("DOMContentLoaded", function () {
    wireCopyButtons(document);
    keepRefusalsInPlace();
    openTarget(window.location.hash);
  });
  // A swapped-in card drawn open (the one just added, or being edited) stays open: a
  // <details name=...> accordion closes an open newcomer while the old copy is still there.
  function reopenCards() {
    document.querySelectorAll("details[data-open]").forEach(function (details) {
      details.open = true;
      details.removeAttribute("data-open");
    });
  }

  document.addEventListener("htmx:afterSwap", reopenCards);

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
  document.addEventListener("htmx:afterSettle", fadeToast);
  document.addEventListener("htmx:afterSettle", function () {
    reopenCards();
    wireCopyButtons(document);
    showUnsaved();
  });
})();
