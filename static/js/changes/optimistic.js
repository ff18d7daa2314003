/* Actions drawn at once: a unit added, duplicated, deleted or moved shows on the page the
 * moment the player asks for it, offline too, before the server has answered.
 *
 * What is drawn is a layer over the server's drawing, made only from what the server
 * already sent: a picker tile names the unit it adds (data-unit: its name, size and kind;
 * data-points: its cost; its entry's counts), a duplicate copies its card's summary, a
 * delete hides the card (with an Undo while it is not sent), a move puts the card at its
 * new place. Cards drawn here carry data-optimistic="1", the id the page chose for the
 * unit (the server keeps it) and a "not yet saved" mark; the heading's count follows the
 * layer. Its points, the total and the picker's counts are the page's engine's (exact.js);
 * until the engine is ready, a card whose points only the server knows says so.
 *
 * The server's drawing is the truth: the layer is lifted before any of the server's parts
 * is swapped in (htmx:oobBeforeSwap) and laid again, from the operations still unsent,
 * after every redraw or applied answer ("muster:redrawn"), after a page load (from the
 * offline copy too) and after each action queued. Laying is idempotent: it lifts what is
 * left of the last layer (whatever a redraw has not already replaced) and draws it again. */
import * as queue from "./queue.js";
import { active as exactFigures } from "./exact.js";
import { MARK, layer } from "./layer.js";

const PREFIX = { units: "unit", generals: "general" };

function armyNow() {
  const builder = document.getElementById("builder");
  return builder && builder.dataset.army ? Number(builder.dataset.army) : null;
}

function cardOf(id) {
  if (!id) { return null; }
  return document.getElementById("unit-" + id) || document.getElementById("general-" + id);
}

function visibleCards(list) {
  return list ? Array.from(list.querySelectorAll(":scope > li.item:not([hidden])")) : [];
}

// -- lifting: the server's drawing as it was (layer.js), with what only the builder changes

function restoreOrder(list, kept) {
  let order = [];
  try { order = JSON.parse(kept); } catch (e) { order = []; }
  const end = list.querySelector(":scope > li.empty");
  order.forEach((id) => {
    const card = document.getElementById(id);
    if (card && card.parentNode === list) { list.insertBefore(card, end); }
  });
}

const layered = layer("data-optimistic", { restore: [
  ["data-optimistic-gone", (card) => { card.hidden = false; }],
  ["data-optimistic-order", restoreOrder],
  ["data-optimistic-disabled", (tile, was) => {
    if (was) { tile.setAttribute("aria-disabled", was); } else { tile.removeAttribute("aria-disabled"); }
  }],
  ["data-optimistic-required", (tile, was) => { tile.classList.toggle("required", was === "1"); }],
] });
const setText = layered.setText;

export function lift() { layered.lift(); }

// -- drawing ---------------------------------------------------------------------------

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

function mark() {
  return span("optimistic-mark", MARK);
}

function pointsSpan(points, usesPoints) {
  if (!usesPoints) { return null; }
  if (points === null || points === undefined || Number.isNaN(points)) {
    const unknown = span("points points-unknown", "");
    unknown.appendChild(span("estimate-note", "points when back online"));
    return unknown;
  }
  const known = span("points", points + " pts");
  known.setAttribute("data-points", String(points));
  return known;
}

function usesPoints() {
  return !!document.getElementById("total-points");
}

/* The card's actions, as a saved card's editor has them: they queue operations on the
 * unit's own id, which the server knows once the add before them has landed. */
function actions(kind, id, name) {
  const form = document.createElement("form");
  form.method = "post";
  form.className = "item-actions";
  form.action = window.location.pathname + PREFIX[kind] + "/" + id + "/";
  const buttons = kind === "units"
    ? [["duplicate", "Duplicate", "secondary", "Duplicate " + name],
       ["move", "↑ Up", "secondary", "Move " + name + " up", "up"],
       ["move", "↓ Down", "secondary", "Move " + name + " down", "down"],
       ["delete", "Delete", "danger", "Delete " + name]]
    : [["delete", "Delete", "danger", "Delete " + name]];
  buttons.forEach(([op, text, className, label, value]) => {
    const button = document.createElement("button");
    button.type = "submit";
    button.className = className;
    button.dataset.op = op;
    button.dataset.target = id;
    if (value) { button.dataset.value = value; }
    button.setAttribute("aria-label", label);
    button.textContent = text;
    form.appendChild(button);
  });
  return form;
}

function newCard(kind, id, summary, entry) {
  const card = document.createElement("li");
  card.className = "item optimistic";
  card.id = PREFIX[kind] + "-" + id;
  layered.marked(card, "1");
  card.setAttribute("data-client-id", id);
  if (entry) { card.setAttribute("data-entry", entry); }
  const details = document.createElement("details");
  details.className = "unit-card";
  details.name = kind;
  const head = document.createElement("summary");
  head.className = "card-head";
  summary.id = card.id + "-summary";
  head.appendChild(summary);
  const editor = document.createElement("div");
  // a placeholder, not an editor: the server's card replaces it (static/js/changes/morph.js)
  editor.className = "card-editor placeholder-editor";
  const help = document.createElement("p");
  help.className = "help";
  help.textContent = "Its fields can be changed once it is saved.";
  const name = summary.querySelector(".item-name");
  editor.append(help, actions(kind, id, name ? name.textContent : ""));
  details.append(head, editor);
  card.appendChild(details);
  return card;
}

function addCard(list, card) {
  list.insertBefore(card, list.querySelector(":scope > li.empty"));
}

function drawAdd(record) {
  const kind = record.field === "generals" ? "generals" : "units";
  const id = record.value && record.value.id;
  const list = document.getElementById(PREFIX[kind] + "-list");
  if (!id || !list || cardOf(id)) { return; }
  const number = visibleCards(list).length + 1;
  let drawn = { name: "", size: "", kind: "" };
  let points = null;
  let entry = "";
  const preset = (record.value && record.value.preset) || "";
  if (kind === "generals") {
    drawn.name = "General " + number;
  } else if (preset.indexOf("entry:") === 0) {
    const tile = document.querySelector("#add-unit-panel button[name=preset][value='" + CSS.escape(preset) + "']");
    if (!tile || !tile.dataset.unit) { return; }  // a stand-in: only the server knows which unit it replaces
    try { drawn = JSON.parse(tile.dataset.unit); } catch (e) { return; }
    points = tile.dataset.points === undefined ? null : Number(tile.dataset.points);
    entry = preset;
  } else {
    const option = document.querySelector("#add-preset option[value='" + CSS.escape(preset || "blank") + "']");
    drawn.name = option && preset && preset !== "blank" ? option.textContent.trim() : "";
  }
  const summary = span("item-summary", "");
  const head = span("item-head", "");
  head.append(span("item-number", number + "."), " ");
  const strong = document.createElement("strong");
  strong.className = "item-name";
  strong.textContent = drawn.name || (kind === "units" ? "Unit " : "General ") + number;
  head.appendChild(strong);
  if (drawn.kind) { head.append(" ", span("item-kind", drawn.kind)); }
  if (drawn.size) { head.append(" ", span("item-size", drawn.size)); }
  head.append(" ", mark());
  const cost = kind === "units" ? pointsSpan(points, usesPoints()) : null;
  if (cost) { head.append(" ", cost); }
  summary.appendChild(head);
  addCard(list, newCard(kind, id, summary, entry));
}

/* What a card's points read now: the server's, this page's estimate, or unknown (null). */
function pointsOf(card) {
  const points = card.querySelector(".item-summary .points");
  if (!points) { return undefined; }
  if (points.classList.contains("points-unknown")) { return null; }
  if (points.classList.contains("estimated")) { return parseInt(points.textContent, 10); }
  return points.hasAttribute("data-points") ? parseInt(points.getAttribute("data-points"), 10) : null;
}

function drawDuplicate(record) {
  const source = cardOf(record.target);
  const id = record.value && record.value.id;
  if (!source || source.hidden || !id || cardOf(id)) { return; }
  const kind = source.id.indexOf("general-") === 0 ? "generals" : "units";
  const original = source.querySelector(".item-summary");
  if (!original) { return; }
  const points = pointsOf(source);
  const summary = original.cloneNode(true);
  summary.removeAttribute("hx-swap-oob");
  summary.querySelectorAll("[id]").forEach((element) => element.removeAttribute("id"));
  summary.querySelectorAll(".estimate-note, .optimistic-mark, .breakdown, .field-error, .points")
    .forEach((element) => element.remove());
  const head = summary.querySelector(".item-head") || summary;
  head.append(" ", mark());
  const cost = points === undefined ? null : pointsSpan(points, true);
  if (cost) { head.append(" ", cost); }
  const card = newCard(kind, id, summary, source.getAttribute("data-entry"));
  source.parentNode.insertBefore(card, source.nextSibling);
}

function drawDelete(record) {
  const card = cardOf(record.target);
  if (!card) { return; }
  if (card.hasAttribute("data-optimistic")) { card.remove(); return; }
  card.hidden = true;
  card.setAttribute("data-optimistic-gone", record.key);
}

function drawMove(record) {
  const card = cardOf(record.target);
  if (!card || card.hidden) { return; }
  const list = card.parentNode;
  if (!list.hasAttribute("data-optimistic-order")) {
    const server = Array.from(list.querySelectorAll(":scope > li.item:not([data-optimistic])")).map((c) => c.id);
    list.setAttribute("data-optimistic-order", JSON.stringify(server));
  }
  const cards = visibleCards(list);
  const at = cards.indexOf(card);
  const to = Math.min(Math.max(at + (record.value === "up" ? -1 : 1), 0), cards.length - 1);
  if (to === at) { return; }
  const other = cards[to];
  list.insertBefore(card, to < at ? other : other.nextSibling);
}

const DRAW = { add: drawAdd, duplicate: drawDuplicate, delete: drawDelete, move: drawMove };

// -- what follows the cards ------------------------------------------------------------

function plural(count, word) {
  return count + " " + word + (count === 1 ? "" : "s");
}

function followCounts() {
  ["units", "generals"].forEach((kind) => {
    const list = document.getElementById(PREFIX[kind] + "-list");
    const heading = document.getElementById(kind + "-count");
    if (!list || !heading) { return; }
    const text = "(" + visibleCards(list).length + ")";
    if (text !== heading.textContent) { setText(heading, text); }
  });
  if (exactFigures()) { return; }  // the engine's figures: the totals and the picker's counts
  // a rule set without points: its totals read the number of units
  const line = document.querySelector("#army-totals .total-line");
  const list = document.getElementById("unit-list");
  if (line && list && !document.getElementById("total-points") && /^\d+ units?$/.test(line.textContent.trim())) {
    const text = plural(visibleCards(list).length, "unit");
    if (text !== line.textContent.trim()) {
      setText(line, text + " ");
      line.appendChild(layered.marked(span("estimate-note", "offline estimate"), "1"));
    }
  }
  followPicker();
}

/* Each tile's counts, as the server words them, with the units drawn here from it (added
 * or copied) and less the units of it hidden here by a delete: a card names its tile in
 * data-entry. The tile's bounds (data-minimum, data-maximum) give what is still required
 * and what room is left for the count it has now, fewer than the server's too. */
function followPicker() {
  document.querySelectorAll("#add-unit-panel button[name=preset][data-unit]").forEach((tile) => {
    const entry = "[data-entry='" + CSS.escape(tile.value) + "']";
    const drawn = document.querySelectorAll("li.item[data-optimistic]" + entry + ":not([hidden])").length;
    const gone = document.querySelectorAll("li.item[data-optimistic-gone]" + entry).length;
    const more = drawn - gone;
    if (!more) { return; }
    const have = Math.max(0, Number(tile.dataset.have || 0) + more);
    const required = Math.max(0, Number(tile.dataset.minimum || 0) - have);
    const remaining = tile.dataset.maximum === undefined ? null : Math.max(0, Number(tile.dataset.maximum) - have);
    const text = required ? required + " more required"
      : remaining === null ? (have ? have + " taken" : "")
      : remaining === 0 ? "list maximum reached" : "up to " + remaining + " more";
    let count = tile.querySelector(".entry-count");
    if (!count) {
      count = layered.marked(span("entry-count", ""), "1");
      const meta = tile.querySelector(".entry-meta");
      if (!meta) { return; }
      meta.append(count);
    }
    setText(count, text);
    if (tile.classList.contains("required") !== (required > 0)) {
      tile.setAttribute("data-optimistic-required", tile.classList.contains("required") ? "1" : "");
      tile.classList.toggle("required", required > 0);
    }
    // full, or no longer full: the server's aria-disabled set or lifted, and kept to restore
    const full = remaining === 0;
    if (full !== (tile.getAttribute("aria-disabled") === "true")) {
      tile.setAttribute("data-optimistic-disabled", tile.getAttribute("aria-disabled") || "");
      if (full) { tile.setAttribute("aria-disabled", "true"); } else { tile.removeAttribute("aria-disabled"); }
    }
  });
}

// -- laying ----------------------------------------------------------------------------

/* The still-unsent actions of this page's army drawn over the server's drawing. */
export function lay() {
  // a card drawn here that the player opened stays open when it is drawn again
  const open = new Set(Array.from(document.querySelectorAll("li.item[data-optimistic] > details[open]"))
    .map((details) => details.parentNode.id));
  const army = armyNow();
  layered.lay(army === null ? [] : queue.pending(army), DRAW);
  if (army !== null) {
    followCounts();
    open.forEach((id) => {
      const card = document.getElementById(id);
      if (card && card.hasAttribute("data-optimistic")) { card.querySelector("details").open = true; }
    });
  }
  lifted = false;
  dropToast();
  document.dispatchEvent(new CustomEvent("muster:optimistic"));
}

// -- a delete's Undo while it is not sent -----------------------------------------------

function dropToast() {
  const box = document.querySelector("#toast [data-optimistic-toast]");
  const army = armyNow();
  if (!box || army === null) { return; }
  const key = box.getAttribute("data-optimistic-toast");
  if (!queue.pending(army).some((r) => r.key === key)) { box.remove(); }
}

function showUndo(record) {
  const toast = document.getElementById("toast");
  if (!toast) { return; }
  const box = document.createElement("div");
  box.className = "toast-box";
  box.setAttribute("data-optimistic-toast", record.key);
  const text = (record.label || "Delete").replace(/^Delete\b/, "Deleted");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "toast-undo";
  button.setAttribute("data-optimistic-undo", record.key);
  button.textContent = "Undo";
  box.append(span("", text + " (" + MARK + ")"), " ", button);
  toast.replaceChildren(box);
}

document.addEventListener("click", (event) => {
  const button = event.target.closest ? event.target.closest("[data-optimistic-undo]") : null;
  const army = armyNow();
  if (!button || army === null) { return; }
  // not sent yet: it is simply not sent; once on its way the server's Undo follows it
  if (queue.drop(army, button.getAttribute("data-optimistic-undo"))) {
    button.closest(".toast-box").remove();
    lay();
  }
});

/* An action just queued by the page: drawn now. */
export function queued(record) {
  lay();
  if (record && record.op === "delete" && armyNow() === record.army) { showUndo(record); }
}

// the server's parts go in over its own drawing; what is still unsent is laid again after
let lifted = false;
function liftFor(event) {
  const target = event.detail && event.detail.target;
  const builder = document.getElementById("builder");
  if (!target || !builder || !(target === builder || builder.contains(target))) { return; }
  if (target.closest("#files")) { return; }  // the print panel's progress: nothing of the layer
  lift();
  lifted = true;
}
document.addEventListener("htmx:oobBeforeSwap", liftFor);
document.addEventListener("htmx:beforeSwap", liftFor);
document.addEventListener("muster:redrawn", lay);
document.addEventListener("muster:morphed", lay);
// laid again in the task that swapped: htmx settles 20 ms later (longer on a busy phone),
// and until then the player would see the cards drawn here gone (a part of the page the
// server sends meanwhile, such as the list's revisions, is not about them at all)
document.addEventListener("htmx:afterSwap", () => { if (lifted) { lay(); } });
document.addEventListener("htmx:afterSettle", () => { if (lifted) { lay(); } });
