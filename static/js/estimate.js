/* Points while offline: a unit's points and the army's total follow the edits the page can
 * price by itself, marked "offline estimate" until the server's answer replaces them.
 *
 * Each unit card's points (in its summary) carry data-estimate (rules FigureCost as whole
 * numbers, from armybuilder/armies/presenters.py): the field that counts its figures, the count
 * the server priced, and points = ceil((per * count + fixed) / den) for a count from min to
 * max; "free" names the fields that cost nothing. A change made offline (or whose save did
 * not reach the server) to the counting field shows the worked-out points at once; a
 * change to any other field that costs, or one the page cannot price, shows "points when
 * back online" instead of a number. The army's total is the sum of the items' points, so
 * it moves by each marked card's difference from the points the server sent. A unit added
 * or duplicated and not yet saved (a card drawn by static/js/changes/optimistic.js, marked
 * data-optimistic) adds its points, a deleted one not yet saved (data-optimistic-gone)
 * takes its points away; an action the page cannot draw (a roll, an undo, a stand-in)
 * leaves the total "points when back online".
 *
 * Nothing here is kept apart from the page: the marks live inside the card's summary and
 * the totals panel, so the server's fragments (htmx swaps of the summary and the totals)
 * take them away by themselves; a card still waiting for its answer is marked again on
 * the new totals. Only DOM events and the markup are read, never another script's state.
 */
(function () {
  "use strict";

  var ESTIMATE = "offline estimate";
  var UNKNOWN = "points when back online";
  // summary element -> {fields: {field: true}, count: number|null}: changes not yet confirmed
  var waiting = new WeakMap();
  // totals drawn before an action (add, duplicate, delete, undo...) that has not reached
  // the server: the page cannot price it, so the total waits for the server's
  var actionTotals = new WeakSet();

  function offline() { return navigator.onLine === false; }

  function summaryOf(element) {
    if (!element || !element.closest) { return null; }
    var form = element.closest("form[hx-target]");
    var target = form ? document.querySelector(form.getAttribute("hx-target")) : null;
    if (target && target.classList.contains("item-summary")) { return target; }
    var card = element.closest(".item");
    return card ? card.querySelector(".item-summary") : null;
  }
  function dataOf(summary) {
    var points = summary.querySelector(".points[data-estimate]");
    try { return points ? JSON.parse(points.dataset.estimate) : null; }
    catch (e) { return null; }
  }
  function cardOf(summary) { return summary.closest(".item") || summary.parentNode; }
  function countControl(summary, field) {
    var wrap = cardOf(summary).querySelector('[data-field="' + field + '"]');
    return wrap ? wrap.querySelector("input:not([type=hidden]), select") : null;
  }
  function countOf(control, data) {
    if (!control || !/^\s*\d+\s*$/.test(control.value)) { return null; }
    var count = parseInt(control.value, 10);
    return count >= data.min && count <= data.max ? count : null;
  }
  function pointsFor(data, count) {
    var top = data.per * count + data.fixed;
    return Math.floor(top / data.den) + (top % data.den > 0 ? 1 : 0);
  }

  // What a card shows while its changes wait: a number, or null for "when back online".
  function estimateOf(summary, state) {
    var data = dataOf(summary);
    if (!data || data.round !== "up") { return null; }
    for (var field in state.fields) {
      if (field !== data.field && data.free.indexOf(field) < 0) { return null; }
    }
    if (!state.fields[data.field]) { return serverPoints(summary); }
    var count = countOf(countControl(summary, data.field), data);
    if (count === null) { count = state.count; }  // the editor unloaded: the last count seen
    return count === null ? null : pointsFor(data, count);
  }
  function serverPoints(summary) {
    var points = summary.querySelector(".points[data-points]");
    return points ? parseInt(points.dataset.points, 10) : null;
  }

  function note(text) {
    var mark = document.createElement("span");
    mark.className = "estimate-note";
    mark.textContent = text;
    return mark;
  }

  function markCard(summary, state) {
    var points = summary.querySelector(".points[data-points]");
    if (!points) { return null; }
    var value = estimateOf(summary, state);
    var unknown = value === null;
    points.textContent = unknown ? "" : value + " pts ";
    points.appendChild(note(unknown ? UNKNOWN : ESTIMATE));
    points.classList.toggle("estimated", !unknown);
    points.classList.toggle("points-unknown", unknown);
    points.title = unknown ? "Worked out by the server when the connection returns"
      : "Worked out on this device; the server confirms it when the connection returns";
    // the cost's steps are the server's, for the figures it priced: not shown as current
    var steps = summary.querySelector(".breakdown");
    if (steps) { steps.hidden = true; }
    var data = dataOf(summary);
    var size = summary.querySelector(".item-size");
    if (size && data && state.fields[data.field] && !unknown) {
      var count = countOf(countControl(summary, data.field), data);
      if (count === null) { count = state.count; }
      var word = /^\d+ (\S+?)s?$/.exec(size.textContent.trim());
      if (word && count !== null) {
        if (!size.hasAttribute("data-server-size")) { size.setAttribute("data-server-size", size.textContent); }
        size.textContent = count + " " + word[1] + (count === 1 ? "" : "s");
      }
    }
    return unknown ? null : value - parseInt(points.dataset.points, 10);
  }

  // The totals panel: the server's total plus each waiting card's difference.
  function markTotal(differences) {
    var total = document.getElementById("total-points");
    if (!total) { return; }
    var panel = total.closest("#army-totals") || total.parentNode;
    if (!differences.length) { restoreTotal(total, panel); return; }
    if (!total.hasAttribute("data-server-total")) {
      total.setAttribute("data-server-total", total.textContent.trim());
      keep(panel.querySelector("progress.bar + .meta"), "text", function (el) { return el.textContent; });
      keep(panel.querySelector("progress.bar"), "value", function (el) { return String(el.value); });
    }
    var server = parseInt(total.getAttribute("data-server-total"), 10);
    var unknown = differences.indexOf(null) >= 0 || isNaN(server);
    var value = unknown ? null : differences.reduce(function (sum, d) { return sum + d; }, server);
    total.textContent = unknown ? "—" : String(value);
    var line = total.closest(".total-line") || total.parentNode;
    var mark = line.querySelector(".estimate-note");
    if (!mark) { mark = note(""); line.appendChild(document.createTextNode(" ")); line.appendChild(mark); }
    mark.textContent = unknown ? UNKNOWN : ESTIMATE;
    panel.classList.toggle("estimated", !unknown);
    panel.classList.toggle("points-unknown", unknown);
    // what follows from the total: the bar and the points left, worked out or withheld
    var limitBox = document.getElementById("points-limit");
    var limit = limitBox ? parseInt(limitBox.textContent, 10) : NaN;
    var bar = panel.querySelector("progress.bar");
    var left = bar && bar.nextElementSibling && bar.nextElementSibling.classList.contains("meta")
      ? bar.nextElementSibling : null;
    if (bar) { bar.hidden = unknown; }
    if (!isNaN(limit) && bar && !unknown) {
      var percent = Math.min(100, Math.round(100 * value / limit));
      bar.value = percent;
      bar.setAttribute("aria-label", percent + "% of the points limit (" + ESTIMATE + ")");
    }
    if (left && !isNaN(limit)) {
      var over = unknown ? 0 : value - limit;
      left.textContent = unknown ? "Points left: " + UNKNOWN
        : over > 0 ? over + " point" + (over === 1 ? "" : "s") + " over the limit"
        : (limit - value) + " point" + (limit - value === 1 ? "" : "s") + " left";
    }
  }

  // the server's own figures, kept on the element while an estimate stands in for them
  function keep(element, what, read) {
    if (element) { element.setAttribute("data-server-" + what, read(element)); }
  }
  // no card waits any more but the server's totals have not come (yet): its figures again
  function restoreTotal(total, panel) {
    if (!total.hasAttribute("data-server-total")) { return; }
    total.textContent = total.getAttribute("data-server-total");
    total.removeAttribute("data-server-total");
    var mark = panel.querySelector(".total-line .estimate-note");
    if (mark) { mark.remove(); }
    panel.classList.remove("estimated", "points-unknown");
    var bar = panel.querySelector("progress.bar[data-server-value]");
    if (bar) {
      bar.value = Number(bar.getAttribute("data-server-value"));
      bar.setAttribute("aria-label", bar.value + "% of the points limit");
      bar.hidden = false;
      bar.removeAttribute("data-server-value");
    }
    var left = panel.querySelector(".meta[data-server-text]");
    if (left) { left.textContent = left.getAttribute("data-server-text"); left.removeAttribute("data-server-text"); }
  }

  function refresh() {
    var differences = [];
    var total = document.getElementById("total-points");
    if (total && actionTotals.has(total)) { differences.push(null); }
    document.querySelectorAll(".item-summary").forEach(function (summary) {
      var card = summary.closest("li.item");
      var points = summary.querySelector(".points");
      if (card && card.hasAttribute("data-optimistic")) {
        if (points) { differences.push(points.hasAttribute("data-points") ? parseInt(points.dataset.points, 10) : null); }
        return;
      }
      if (card && card.hasAttribute("data-optimistic-gone")) {
        if (points) { var was = serverPoints(summary); differences.push(was === null ? null : -was); }
        return;
      }
      var state = waiting.get(summary);
      if (state) { differences.push(markCard(summary, state)); } else { unmark(summary); }
    });
    markTotal(differences);
  }

  // A card that waits no more (its answer landed, the builder morphed into the server's
  // drawing) shows the server's points again.
  function unmark(summary) {
    var points = summary.querySelector(".points[data-points]");
    if (!points || !points.querySelector(".estimate-note")) { return; }
    points.textContent = points.dataset.points + " pts";
    points.classList.remove("estimated", "points-unknown");
    points.removeAttribute("title");
    var steps = summary.querySelector(".breakdown");
    if (steps) { steps.hidden = false; }
    var size = summary.querySelector(".item-size[data-server-size]");
    if (size) { size.textContent = size.getAttribute("data-server-size"); size.removeAttribute("data-server-size"); }
  }

  // A change to a card's field that the server has not confirmed: remembered on the card.
  function noteChange(summary, field, unconfirmed) {
    var state = waiting.get(summary);
    if (!state && !unconfirmed) { return; }
    if (!state) { state = { fields: {}, count: null }; waiting.set(summary, state); }
    state.fields[field] = true;
    var data = dataOf(summary);
    if (data && field === data.field) {
      var count = countOf(countControl(summary, field), data);
      state.count = count;
    }
  }
  function onEdit(event) {
    var wrap = event.target && event.target.closest ? event.target.closest("[data-field]") : null;
    var summary = wrap ? summaryOf(wrap) : null;
    if (!summary || !summary.querySelector(".points[data-points]")) { return; }
    var data = dataOf(summary);
    var field = wrap.dataset.field;
    if (data && data.free.indexOf(field) >= 0 && !waiting.get(summary)) { return; }
    noteChange(summary, field, offline());
    if (waiting.get(summary)) { refresh(); }
  }
  document.addEventListener("input", onEdit);
  document.addEventListener("change", onEdit);

  // The element a request comes from: the control the player changed (a menu's change
  // reaches the card's form), or the button pressed.
  function sourceOf(detail) {
    var config = detail.requestConfig || {};
    return (config.triggeringEvent && config.triggeringEvent.target) || detail.elt;
  }
  // A POST of the builder that is not a field's save nor a setting's.
  function isAction(detail, source) {
    var config = detail.requestConfig || {};
    return config.verb === "post" && !!source && !!source.closest && !!source.closest("#builder")
      && !source.closest("[data-field]") && !source.closest("#settings");
  }
  function actionWaits() {
    var total = document.getElementById("total-points");
    if (total) { actionTotals.add(total); refresh(); }
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail || {};
    if (offline() && isAction(detail, sourceOf(detail))) { actionWaits(); }
  });
  // The builder's change module sends actions itself (add, duplicate, delete, move, roll):
  // a form or button of the builder naming its operation, submitted offline.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var from = event.submitter && event.submitter.dataset.op ? event.submitter : form;
    if (!offline() || !form.closest || !form.closest("#builder")) { return; }
    var op = from.dataset ? from.dataset.op : "";
    // added, duplicated, deleted or moved: drawn at once, and priced with the cards
    var drawn = op === "duplicate" || op === "delete" || op === "move"
      || (op === "add" && !(from.name === "preset" && from.value.indexOf("entry:") === 0 && !from.dataset.unit));
    if (op && op !== "set" && !drawn) { actionWaits(); }
  }, true);

  // A save that did not reach the server: its card waits like an offline one.
  function onLost(event) {
    var detail = event.detail || {};
    if ((detail.requestConfig || {}).verb !== "post") { return; }  // a card's editor, read only
    var element = sourceOf(detail);
    if (isAction(detail, element)) { actionWaits(); return; }
    var summary = summaryOf(element);
    if (!summary || !summary.querySelector(".points[data-points]")) { return; }
    var wrap = element.closest("[data-field]");
    var data = dataOf(summary);
    if (wrap && data && data.free.indexOf(wrap.dataset.field) >= 0) { return; }
    // a save that names no field: the points wait for the server
    noteChange(summary, wrap ? wrap.dataset.field : "", true);
    refresh();
  }
  document.addEventListener("htmx:sendError", onLost);

  // A page drawn with a change still waiting (a reload with pending edits put back): the
  // count in the field is not the one the server priced.
  function restored() {
    document.querySelectorAll(".item-summary").forEach(function (summary) {
      var data = dataOf(summary);
      var control = data ? countControl(summary, data.field) : null;
      if (control && String(control.value).trim() !== String(data.count)) {
        noteChange(summary, data.field, true);
      }
    });
    refresh();
  }

  // The server's fragments replace summaries and totals: cards still waiting mark the new
  // totals again (a swapped summary is a new element, so its card waits no more).
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("muster:optimistic", refresh);
  // a card's editor drawn after the page (opened, or kept offline) may hold a change put
  // back from the queue: priced again once the change module has put it in place
  document.addEventListener("htmx:afterSettle", function () { setTimeout(restored, 0); });
  new MutationObserver(function (records) {
    for (var i = 0; i < records.length; i++) {
      var target = records[i].target;
      if (target.id === "army-totals" || target.closest && target.closest("#builder")) {
        var total = document.getElementById("total-points");
        if (total && !total.hasAttribute("data-server-total")) { refresh(); }
        return;
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });

  // The builder morphed into the server's drawing (the same summary elements, new
  // content): what waited is priced again from what is still waiting
  document.addEventListener("muster:redrawn", function () {
    waiting = new WeakMap();
    actionTotals = new WeakSet();
    refresh();
    setTimeout(restored, 0);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setTimeout(restored, 0); });
  } else {
    setTimeout(restored, 0);
  }
})();
