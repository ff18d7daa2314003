/* The list editor: every change is sent in order, one at a time, and nothing typed is lost.
 *
 * A field is sent when the player leaves it (change, or leaving a field whose value differs
 * from the one the server last rendered). Changes wait in one queue, sent oldest first, one
 * at a time, so each lands on the list the one before it made; a field changed again before
 * its turn is sent once, with its latest value. Buttons (add, remove, undo, redo, "Use 4",
 * a "Then ..." step) queue the same way.
 *
 * Each answer redraws the editor (the server's refusal sits at its field, with what was
 * typed), but keeps what the player has typed since: the field they are in (its value,
 * focus and caret) and every field still waiting in the queue. A field typed in and left
 * before this script ran is sent when it starts. Without a connection a change waits and
 * is sent again. Without JavaScript each field has a Save button. */
(function () {
  "use strict";

  var queue = [];  // {key, url, body, values}
  var inflight = null;
  var swapping = false;
  var actions = 0;

  function editor() { return document.getElementById("list-editor"); }

  function controlsOf(form) {
    return Array.prototype.slice.call(
      form.querySelectorAll("input:not([type=hidden]), select, textarea"));
  }

  function snapshot(form) {
    return controlsOf(form).map(function (c) {
      return [c.id || "", c.type === "checkbox" ? c.checked : c.value, c.value];
    });
  }

  function dirty(control) {
    if (control.type === "checkbox" || control.type === "radio") {
      return control.checked !== control.defaultChecked;
    }
    if (control.tagName === "SELECT") {
      return Array.prototype.some.call(control.options, function (o) {
        return o.selected !== o.defaultSelected;
      });
    }
    return control.value !== control.defaultValue;
  }

  function setStatus(text) {
    var status = document.getElementById("list-status");
    if (status) { status.textContent = text; }
    var root = editor();
    if (root) { root.classList.toggle("saving", queue.length > 0 || inflight !== null); }
  }

  function enqueue(key, form) {
    var body = new URLSearchParams(new FormData(form)).toString();
    var waiting = null;
    queue.forEach(function (entry) { if (entry.key === key) { waiting = entry; } });
    if (waiting) {
      waiting.body = body;
      waiting.values = snapshot(form);
    } else {
      queue.push({ key: key, url: form.getAttribute("action"), body: body, values: snapshot(form) });
    }
    setStatus("Saving…");
    pump();
  }

  function commit(control) {
    var form = control && control.closest ? control.closest('form[data-edit="field"]') : null;
    if (!form || !editor() || !editor().contains(form)) { return; }
    var key = form.getAttribute("data-key");
    var queued = queue.some(function (entry) { return entry.key === key; });
    // sent when it differs from what the server last drew (or to update its queued value)
    if (!queued && !controlsOf(form).some(dirty)) { return; }
    // leaving a field fires both change and focusout: the one on its way is enough
    var body = new URLSearchParams(new FormData(form)).toString();
    if (!queued && inflight && inflight.key === key && inflight.body === body) { return; }
    enqueue(key, form);
  }

  function csrf(body) {
    return new URLSearchParams(body).get("csrfmiddlewaretoken") || "";
  }

  function pump() {
    if (inflight || !queue.length) {
      if (!inflight && !queue.length) { setStatus(""); }
      return;
    }
    inflight = queue.shift();
    var sent = inflight;
    window.fetch(sent.url, {
      method: "POST",
      body: sent.body,
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-List-Editor": "true",
        "X-CSRFToken": csrf(sent.body)
      }
    }).then(function (response) {
      return response.text().then(function (html) {
        inflight = null;
        if (response.status >= 500 || !/id="list-editor"/.test(html)) {
          setStatus("Not saved: the server could not take the change. Reload the page to try again.");
          return;
        }
        swap(html);
        pump();
      });
    }).catch(function () {
      inflight = null;
      queue.unshift(sent);
      setStatus("Not saved yet: no connection. It is sent again by itself.");
      window.setTimeout(pump, 2000);
    });
  }

  function restore(form, values) {
    var controls = controlsOf(form);
    values.forEach(function (v, i) {
      var c = (v[0] && document.getElementById(v[0])) || controls[i];
      if (!c || !form.contains(c)) { return; }
      if (c.type === "checkbox") { c.checked = v[1]; } else { c.value = v[2]; }
    });
  }

  function swap(html) {
    var root = editor();
    if (!root) { return; }
    var holder = document.createElement("template");
    holder.innerHTML = html;
    var fresh = holder.content.querySelector("#list-editor");
    if (!fresh) { return; }
    var active = document.activeElement;
    var kept = null;
    if (active && root.contains(active) && active.id) {
      kept = { id: active.id, dirty: dirty(active), value: active.value, checked: active.checked };
      try { kept.start = active.selectionStart; kept.end = active.selectionEnd; } catch (e) { /* number inputs */ }
    }
    swapping = true;
    root.replaceWith(fresh);
    swapping = false;
    queue.forEach(function (entry) {
      var form = fresh.querySelector('form[data-key="' + CSS.escape(entry.key) + '"]');
      if (form) { restore(form, entry.values); }
    });
    if (kept) {
      var again = document.getElementById(kept.id);
      if (again) {
        if (kept.dirty) {
          if (again.type === "checkbox") { again.checked = kept.checked; } else { again.value = kept.value; }
        }
        again.focus();
        try {
          if (kept.start !== null && kept.start !== undefined) { again.setSelectionRange(kept.start, kept.end); }
        } catch (e) { /* number inputs have no caret position */ }
      }
    }
    var alert = fresh.querySelector(".refusal");
    if (alert && !kept) { alert.scrollIntoView({ block: "center" }); }
    setStatus(queue.length ? "Saving…" : (fresh.querySelector("#list-status").textContent || ""));
  }

  document.addEventListener("change", function (event) {
    if (swapping) { return; }
    commit(event.target);
  });
  document.addEventListener("focusout", function (event) {
    if (swapping) { return; }
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA") && target.type !== "checkbox") {
      commit(target);
    }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var root = editor();
    if (!root || !root.contains(form) || !form.hasAttribute("data-edit")) { return; }
    event.preventDefault();
    if (form.getAttribute("data-edit") === "field") {
      commit(controlsOf(form)[0]);
      return;
    }
    actions += 1;
    enqueue("action:" + actions, form);
  });
  // a field typed in and left before this script ran is sent now (forms carry
  // autocomplete="off", so a value differing from the page's is always the player's)
  function sendTypedEarly() {
    var root = editor();
    if (!root) { return; }
    root.querySelectorAll('form[data-edit="field"]').forEach(function (form) {
      var controls = controlsOf(form);
      if (controls.indexOf(document.activeElement) < 0 && controls.some(dirty)) { commit(controls[0]); }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", sendTypedEarly);
  } else {
    sendTypedEarly();
  }

  window.addEventListener("beforeunload", function (event) {
    if (queue.length || inflight) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
})();
