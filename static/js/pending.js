/* Pending changes that cannot be lost, and a page that stays current.
 *
 * Every field the player changes is written at once, with what its save needs (URL and
 * form values, the value it was made from), to localStorage under this army's page; the
 * entry goes when the server confirms that value. Each field says saving / saved / not
 * saved (why), and #pending-changes counts what the server has not confirmed yet.
 * A save that could not reach the server is sent again by itself, oldest first, when the
 * connection returns (the online event, and a backoff meanwhile), through the same change
 * protocol as any save, so a conflict still comes back as the two-value choice. Leaving
 * with pending changes sends them with fetch keepalive and asks the browser's leave-page
 * question; a reload puts back any change still pending and sends it again.
 *
 * An action made without a connection (add, duplicate, move, delete, undo, a roll) waits
 * in order in the same storage, is counted and named in #pending-changes, and is sent by
 * itself when the connection returns, made from the version of the page it was made on,
 * and names each unit by its stable id, so it lands on the unit it was made on.
 *
 * Coming back to the page (Back/Forward, a tab shown again) asks the server for the
 * army's version; when it moved on elsewhere the builder is redrawn from the server, but
 * never while the player is in a field or has unsent changes (it waits for those). */
(function () {
  "use strict";

  var builder = null;
  var storeKey = "muster:pending:" + window.location.pathname;
  // the control's wrapper id (its unit's id and the field, "u-k7qm2xze-figures-wrap") ->
  // entry {key, field, url, params, value, from, seq, state}: one per field of each unit
  var pending = {};
  var seq = 0;
  var actionsKey = "muster:actions:" + window.location.pathname;
  var actions = [];  // in order: {path, params, target, swap, label}
  function readActions() {
    try { return JSON.parse(window.localStorage.getItem(actionsKey) || "[]") || []; }
    catch (e) { return []; }
  }
  function writeActions() {
    try {
      if (actions.length) { window.localStorage.setItem(actionsKey, JSON.stringify(actions)); }
      else { window.localStorage.removeItem(actionsKey); }
    } catch (e) { /* the page's own queue still holds them */ }
  }

  function readStore() {
    try { return JSON.parse(window.localStorage.getItem(storeKey) || "{}") || {}; }
    catch (e) { return {}; }
  }
  function writeStore() {
    try {
      if (Object.keys(pending).length) { window.localStorage.setItem(storeKey, JSON.stringify(pending)); }
      else { window.localStorage.removeItem(storeKey); }
    } catch (e) { /* storage full or blocked: the page's own queue still holds them */ }
  }

  function wrapOf(element) {
    return element && element.closest ? element.closest("[data-field]") : null;
  }
  function wrapFor(key) {
    var wrap = document.getElementById(key);
    return wrap && wrap.dataset.field && builder && builder.contains(wrap) ? wrap : null;
  }
  function controlOf(wrap) {
    return wrap.querySelector("input:not([type=hidden]), select, textarea");
  }
  function valueOf(wrap) {
    var values = [];
    wrap.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (c) {
      values.push(c.type === "checkbox" || c.type === "radio" ? c.checked : c.value);
    });
    return JSON.stringify(values);
  }
  function setValue(wrap, value) {
    var values = JSON.parse(value);
    wrap.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (c, i) {
      if (i >= values.length) { return; }
      if (c.type === "checkbox" || c.type === "radio") { c.checked = values[i]; } else { c.value = values[i]; }
    });
  }
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; }
    catch (e) { return ""; }
  }
  function postUrl(control) {
    var holder = control.closest("[hx-post]");
    return holder ? holder.getAttribute("hx-post") : null;
  }

  // The change as the change protocol posts it (builder.js configRequest does the same for htmx).
  function entryFor(wrap) {
    var control = controlOf(wrap);
    var url = control ? postUrl(control) : null;
    if (!url || !wrap.dataset.param || !wrap.id) { return null; }
    var param = wrap.dataset.param;
    var params = [];
    wrap.querySelectorAll("input[name], select[name], textarea[name]").forEach(function (c) {
      if (c.name !== param && c.name.indexOf(param + ".") !== 0) { return; }
      if ((c.type === "checkbox" || c.type === "radio") && !c.checked) { return; }
      if (c.tagName === "SELECT" && c.multiple) {
        Array.from(c.selectedOptions).forEach(function (o) { params.push([c.name, o.value]); });
        return;
      }
      params.push([c.name, c.value]);
    });
    return { key: wrap.id, field: wrap.dataset.field, url: url, params: params, value: valueOf(wrap),
             from: wrap.dataset.from, seq: ++seq, state: "saving", reason: "" };
  }

  function showState(wrap, state, reason) {
    var box = wrap.querySelector(":scope > .field-state");
    if (!box) {
      box = document.createElement("span");
      box.className = "field-state";
      box.setAttribute("aria-live", "polite");
      wrap.appendChild(box);
    }
    wrap.dataset.state = state;
    box.textContent = state === "saving" ? "Saving…" : state === "saved" ? "Saved"
      : "Not saved: " + (reason || "no answer from the server");
  }

  var noticeUntil = 0;
  function showCount() {
    var box = document.getElementById("pending-changes");
    if (!box) { return; }
    var entries = Object.keys(pending).map(function (k) { return pending[k]; });
    var count = entries.length + actions.length;
    // a redraw's notice stays its full time unless there is something pending to count
    if (count === 0 && Date.now() < noticeUntil) { return; }
    var failed = entries.filter(function (e) { return e.state === "failed"; }).length + actions.length;
    box.hidden = count === 0;
    var text = count === 1 ? "1 change not yet saved" : count + " changes not yet saved";
    if (failed) { text += navigator.onLine === false ? " (offline: sent when the connection returns)" : " (retrying)"; }
    if (actions.length) {
      text += ": " + actions.map(function (a) { return a.label; }).join(", ");
    }
    box.textContent = text;
  }

  function remember(wrap) {
    if (!builder || !builder.contains(wrap)) { return; }
    // a conflict waits for the player's choice (builder.js sends nothing meanwhile)
    if (wrap.classList.contains("conflicted")) { return; }
    var entry = entryFor(wrap);
    if (!entry) { return; }
    changesMade++;
    // the value the server already confirmed (a change event after the save, on leaving
    // the field for a link): nothing is unsent, so nothing to keep or to ask about
    if (JSON.stringify(entry.params) === wrap.dataset.savedParams) {
      delete pending[entry.key];
      writeStore();
      showCount();
      return;
    }
    pending[entry.key] = entry;
    writeStore();
    showState(wrap, "saving");
    showCount();
  }
  document.addEventListener("input", function (e) { var w = wrapOf(e.target); if (w) { remember(w); } });
  document.addEventListener("change", function (e) { var w = wrapOf(e.target); if (w) { remember(w); } });

  function requestWrap(detail) {
    var config = detail.requestConfig;
    var id = config && config.headers ? config.headers["X-Muster-Control"] : null;
    return id ? document.getElementById(id) : null;
  }

  // Runs after builder.js's own handler (this script loads after it): the answer is read.
  document.addEventListener("htmx:afterRequest", function (event) {
    var wrap = requestWrap(event.detail);
    var xhr = event.detail.xhr;
    if (!wrap || !wrap.dataset.field) { return; }
    var entry = pending[wrap.id];
    var status = xhr ? xhr.status : 0;
    if (status === 0 && wrap.dataset.replaced) {
      delete wrap.dataset.replaced;  // replaced by a newer keystroke's save: still saving
      return;
    }
    if (status === 200) {
      // confirmed, unless the player typed more since this request left
      if (entry && !wrap.dataset.dirty) {
        wrap.dataset.savedParams = JSON.stringify(entry.params);
        delete pending[wrap.id];
      }
      tellOtherTabs();
      if (!wrap.dataset.dirty) { showState(wrap, "saved"); }
      attempts = 0;
    } else if (status === 400 || status === 409) {
      // refused or conflicted: the field shows why (or the choice); sending again would not help
      delete pending[wrap.id];
      var msg = wrap.querySelector(".field-msg");
      showState(wrap, "failed", status === 409 ? "changed elsewhere, choose a value"
        : (msg && msg.textContent) || "the server refused this value");
    } else {
      if (entry) { entry.state = "failed"; }
      showState(wrap, "failed", status ? "server error " + status + ", trying again"
        : (navigator.onLine === false ? "offline, sent when the connection returns" : "no connection, trying again"));
      scheduleRetry();
    }
    writeStore();
    showCount();
  });

  // Sending again: the control's change event goes through htmx and the change protocol.
  var attempts = 0;
  var retryTimer = null;
  function scheduleRetry() {
    clearTimeout(retryTimer);
    var delay = Math.min(30000, 1000 * Math.pow(2, attempts++));
    retryTimer = setTimeout(retryAll, delay);
  }
  function retryAll() {
    clearTimeout(retryTimer);
    if (navigator.onLine === false) { return; }  // the online event will call again
    // waiting actions first, in order; the fields once they are through, since an
    // action's answer redraws the units and would drop a field's request still queued
    if (actions.length) { sendActions(); return; }
    Object.keys(pending).map(function (k) { return pending[k]; })
      .sort(function (a, b) { return a.seq - b.seq; })
      .forEach(function (entry) {
        var wrap = wrapFor(entry.key);
        if (!wrap) { delete pending[entry.key]; return; }
        if (entry.state !== "failed" && entry.state !== "restored") { return; }
        // a redraw since (an action's answer) shows the server's value: put the player's back
        if (valueOf(wrap) !== entry.value) { setValue(wrap, entry.value); }
        entry.state = "saving";
        showState(wrap, "saving");
        var control = controlOf(wrap);
        if (control) { control.dispatchEvent(new Event("change", { bubbles: true })); }
      });
    writeStore();
    showCount();
  }
  window.addEventListener("online", function () { attempts = 0; retryAll(); });  // actions first (retryAll)

  // Actions: a POST from the builder that is not one field's save.
  function isAction(detail) {
    var config = detail.requestConfig;
    if (!config || config.verb !== "post" || !builder || !detail.elt || !builder.contains(detail.elt)) { return false; }
    var headers = config.headers || {};
    return !headers["X-Muster-Control"] && !headers["X-Muster-Replay"];
  }
  function labelOf(detail) {
    var event = detail.requestConfig.triggeringEvent;
    var button = (event && event.submitter) || detail.elt;
    var entry = button.querySelector(".entry-name");  // a tile of the list: its unit
    var text = entry ? "Add " + entry.textContent
      : (button.getAttribute("aria-label") || button.textContent || "a change");
    var item = button.closest("li.item");
    var name = item && item.querySelector(".item-name");
    if (name && text.indexOf(name.textContent) < 0) { text += " " + name.textContent; }
    return text.trim().replace(/\s+/g, " ").slice(0, 80);
  }
  function queueAction(detail) {
    var config = detail.requestConfig;
    var params = [];
    config.formData.forEach(function (value, key) { if (typeof value === "string") { params.push([key, value]); } });
    var holder = detail.elt.closest("[hx-swap]");
    actions.push({ path: config.path, params: params,
                   target: detail.target && detail.target.id ? "#" + detail.target.id : "#builder",
                   swap: holder ? holder.getAttribute("hx-swap") : "innerHTML", label: labelOf(detail) });
    writeActions();
    showCount();
    scheduleRetry();
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine !== false || !isAction(event.detail)) { return; }
    event.preventDefault();  // no connection: it waits, and the page says so
    queueAction(event.detail);
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (isAction(event.detail)) { queueAction(event.detail); }
  });
  var sending = false;
  var fieldsAfterSettle = false;
  document.addEventListener("htmx:afterSettle", function () {
    if (fieldsAfterSettle) { fieldsAfterSettle = false; setTimeout(retryAll, 0); }
  });
  function sendActions() {
    if (sending || !actions.length || navigator.onLine === false || !window.htmx) { return; }
    sending = true;
    var action = actions[0];
    var values = {};
    action.params.forEach(function (p) {
      values[p[0]] = p[0] in values ? [].concat(values[p[0]], p[1]) : p[1];
    });
    values.csrfmiddlewaretoken = csrfToken();
    var settle = function (sent) {
      sending = false;
      if (!sent) { scheduleRetry(); return; }
      actions.shift();
      writeActions();
      showCount();
      if (actions.length) { sendActions(); return; }
      // then the fields, once the last action's answer is swapped in (their controls are
      // the new ones then: a request from a control swapped out would be dropped)
      fieldsAfterSettle = true;
      setTimeout(function () { if (fieldsAfterSettle) { fieldsAfterSettle = false; retryAll(); } }, 1000);
    };
    window.htmx.ajax("POST", action.path, { target: action.target, swap: action.swap, values: values,
                                            headers: { "X-Muster-Replay": "1" } })
      .then(function () { settle(lastReplayReached); }, function () { settle(false); });
  }
  // whether the last replay reached the server (any answer: a refusal is shown, not resent)
  var lastReplayReached = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var headers = event.detail.requestConfig && event.detail.requestConfig.headers;
    if (headers && headers["X-Muster-Replay"]) { lastReplayReached = false; }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var headers = event.detail.requestConfig && event.detail.requestConfig.headers;
    if (headers && headers["X-Muster-Replay"]) { lastReplayReached = !!(event.detail.xhr && event.detail.xhr.status); }
  });
  window.addEventListener("offline", showCount);

  // Leaving: send what is pending with keepalive (it outlives the page), and ask.
  function flush() {
    var version = document.getElementById("army-version");
    Object.keys(pending).forEach(function (k) {
      var entry = pending[k];
      var body = new URLSearchParams();
      body.append("csrfmiddlewaretoken", csrfToken());
      if (version) { body.append("version", version.value); }
      entry.params.forEach(function (p) { body.append(p[0], p[1]); });
      body.append("_field", entry.field);
      body.append("_from", entry.from);
      // offline, or refused: the restore after a reload sends it again (a rejected promise
      // is caught here, not thrown into the page as an uncaught error)
      try {
        fetch(entry.url, { method: "POST", body: body, keepalive: true, credentials: "same-origin",
                           headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true" } })
          .catch(function () {});
      } catch (e) { /* a fetch that cannot even start: sent again after the reload */ }
    });
  }
  window.addEventListener("beforeunload", function (event) {
    if (!Object.keys(pending).length && !actions.length) { return; }
    flush();  // the waiting actions stay stored and are sent from the next page
    event.preventDefault();
    event.returnValue = "";
  });

  // A reload: put back what is still pending and send it again (a change the keepalive
  // already saved reads as the page's own value now, and is dropped).
  function restore() {
    var stored = readStore();
    Object.keys(stored).forEach(function (key) {
      var entry = stored[key];
      var wrap = wrapFor(key);
      if (!wrap || !entry || valueOf(wrap) === entry.value) { return; }
      setValue(wrap, entry.value);
      wrap.dataset.from = entry.from;  // a change elsewhere meanwhile comes back as a conflict
      entry.state = "restored";
      seq = Math.max(seq, entry.seq || 0);
      pending[key] = entry;
      showState(wrap, "saving");
    });
    writeStore();
    showCount();
    if (Object.keys(pending).length) { retryAll(); }
  }

  // A redrawn builder (undo, a restore, another tab's change) keeps the field states shown.
  document.addEventListener("htmx:afterSettle", function () {
    builder = document.getElementById("builder");
    Object.keys(pending).forEach(function (key) {
      var wrap = wrapFor(key);
      var entry = pending[key];
      if (wrap && !wrap.dataset.state) { showState(wrap, entry.state === "failed" ? "failed" : "saving"); }
    });
    showCount();
  });

  // Other tabs of this army: a change saved here tells them at once (BroadcastChannel), so
  // they ask the server for the army's version and redraw (unit cards included) when it
  // moved on, instead of waiting to be shown again.
  var channel = null;
  try { channel = "BroadcastChannel" in window ? new BroadcastChannel("muster:armies") : null; }
  catch (e) { channel = null; }
  function tellOtherTabs() {
    if (channel) { channel.postMessage({ path: window.location.pathname }); }
  }
  if (channel) {
    channel.onmessage = function (event) {
      if (event.data && event.data.path === window.location.pathname) { checkVersion(); }
    };
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig;
    var xhr = event.detail.xhr;
    // an action (add, delete, move, settings...) saved here: the field answers tell above
    if (config && config.verb === "post" && xhr && xhr.status === 200 && !requestWrap(event.detail)) {
      tellOtherTabs();
    }
  });

  // Shown again: has the army changed elsewhere?
  var staleWaiting = false;
  var noticeTimer = null;
  // A redraw would replace what the player is in the middle of: a field with focus, a
  // change not confirmed, a refused value or a conflict's choice.
  function busy() {
    var active = document.activeElement;
    if (Object.keys(pending).length > 0 || actions.length > 0) { return true; }
    if (active && wrapOf(active) && builder && builder.contains(active)) { return true; }
    return !!document.querySelector("#builder [data-field].conflicted, #builder [data-field].invalid, #builder [data-field][data-dirty]");
  }
  function checkVersion() {
    builder = document.getElementById("builder");
    if (!builder || !builder.dataset.versionUrl || navigator.onLine === false) { return; }
    fetch(builder.dataset.versionUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        var current = document.getElementById("army-version");
        if (!data || !current || String(data.version) === current.value) { return; }
        if (busy()) { staleWaiting = true; return; }
        redraw();
      })
      .catch(function () {});
  }
  // counts the player's changes: a redraw drawn from a page fetched before one of them
  // would put back the value from before it, so it is dropped and asked for again
  var changesMade = 0;
  function redraw() {
    staleWaiting = false;
    var madeBefore = changesMade;
    fetch(window.location.pathname + window.location.search, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        var fresh = html ? new DOMParser().parseFromString(html, "text/html").getElementById("builder") : null;
        var old = document.getElementById("builder");
        if (!fresh || !old || busy()) { return; }
        if (changesMade !== madeBefore) { checkVersion(); return; }
        var touched = [];
        patch(old, document.importNode(fresh, true), touched);
        builder = document.getElementById("builder");
        if (window.htmx) { touched.forEach(function (el) { if (el.isConnected) { window.htmx.process(el); } }); }
        var box = document.getElementById("pending-changes");
        if (box) {
          box.hidden = false;
          box.textContent = "Updated from another tab or device.";
          // one notice at a time: an earlier redraw's timer must not cut this one short
          clearTimeout(noticeTimer);
          noticeUntil = Date.now() + 6000;
          noticeTimer = setTimeout(showCount, 6100);
        }
      })
      .catch(function () {});
  }
  // Only what changed is redrawn: the page keeps every part the server draws the same
  // (an open card stays open, the scroll stays put), and a part whose children differ
  // in number or identity is replaced whole. A form control is replaced rather than
  // updated (its value attribute no longer shows once the player has typed in it); a
  // part the page loads by itself once drawn (hx-trigger="load") is kept as loaded.
  function words(el) {
    return Array.from(el.childNodes).filter(function (n) { return n.nodeType === 3 && n.nodeValue.trim(); })
      .map(function (n) { return n.nodeValue.trim(); }).join("\u0000");
  }
  function sameShape(a, b) {
    if (a.children.length !== b.children.length || words(a) !== words(b)) { return false; }
    for (var i = 0; i < a.children.length; i++) {
      if (a.children[i].id !== b.children[i].id) { return false; }
    }
    return true;
  }
  function patch(old, fresh, touched) {
    if (fresh.id && fresh.id === old.id && fresh.getAttribute("hx-trigger") === "load") { return; }
    if (fresh.tagName === "DETAILS") {
      if (old.hasAttribute("open")) { fresh.setAttribute("open", ""); } else { fresh.removeAttribute("open"); }
    }
    if (old.isEqualNode(fresh)) { return; }
    if (old.tagName !== fresh.tagName || /^(INPUT|SELECT|TEXTAREA|OPTION)$/.test(old.tagName) || !sameShape(old, fresh)) {
      old.replaceWith(fresh);
      touched.push(fresh);
      return;
    }
    var changed = false;
    Array.from(old.attributes).forEach(function (a) {
      if (!fresh.hasAttribute(a.name)) { old.removeAttribute(a.name); changed = true; }
    });
    Array.from(fresh.attributes).forEach(function (a) {
      if (old.getAttribute(a.name) !== a.value) { old.setAttribute(a.name, a.value); changed = true; }
    });
    if (changed) { touched.push(old); }
    var oldKids = Array.from(old.children), freshKids = Array.from(fresh.children);
    for (var i = 0; i < oldKids.length; i++) { patch(oldKids[i], freshKids[i], touched); }
  }

  // Asked again once the player is done: this page's own saves meanwhile may have caught
  // it up (each answer brings the version), and then there is nothing to redraw.
  document.addEventListener("focusout", function () {
    setTimeout(function () { if (staleWaiting && !busy()) { staleWaiting = false; checkVersion(); } }, 0);
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (staleWaiting && !busy()) { staleWaiting = false; checkVersion(); }
  });
  window.addEventListener("pageshow", function (event) {
    // a page restored from the back/forward cache, or redrawn from the HTTP cache
    if (event.persisted || (performance.getEntriesByType("navigation")[0] || {}).type === "back_forward") {
      checkVersion();
    }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { checkVersion(); }
  });


  document.addEventListener("DOMContentLoaded", function () {
    builder = document.getElementById("builder");
    if (builder) {
      actions = readActions();
      restore();
      showCount();
      sendActions();
    }
  });
})();
