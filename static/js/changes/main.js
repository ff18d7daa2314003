/* Muster's change protocol, written once: every builder edit is an operation
 * {key, army, base_version, op, target, field, value, from}, kept in IndexedDB until the
 * server answered for it, sent in order in batches (queue.js), its answer applied to the
 * page (out-of-band html, or a redraw from the server: redraw.js) and shown at its field
 * (fields.js). Loaded as a module on every page: queued changes of any army are sent when
 * the connection returns or a page loads, whichever page it is.
 *
 * Controls are read by event delegation (a card's editor drawn later is handled alike):
 * [data-field] wrappers for values, forms and buttons with data-op for actions. Without
 * JavaScript the same forms post to their own URLs. */
import * as store from "./store.js";
import * as conflicts from "./conflicts.js";
import * as queue from "./queue.js";
import * as redraw from "./redraw.js";
import * as morph from "./morph.js";
import * as optimistic from "./optimistic.js";
import { drawToast, keepTheirCard, openAdded, showGone, showRolled } from "./landed.js";
import { showProblem } from "./problem.js";
import { newItemId, onceKey } from "./keys.js";
import { showCount, showTitle } from "./pending.js";
import { catchUp, remember, savedSince, sawSaved, showCopyAge, versionNow } from "./kept.js";
import {
  clearState, fromOf, readValue, repaint, sameValue, showState, stateOf, targetOf, wrapFor, wrapOf, writeValue,
} from "./fields.js";

const TYPING_MS = 150;  // keystrokes close together go as one operation

let builder = null;
let army = null;
let redrawAfterResend = false;
const channel = "BroadcastChannel" in window ? new BroadcastChannel("muster:armies") : null;

function record(fields) {
  return Object.assign({
    key: onceKey(), army: army, base_version: versionNow(), target: "army", field: "",
    value: null, url: builder.dataset.operationsUrl, label: "",
  }, fields);
}

// -- values ----------------------------------------------------------------------------

function fieldLabel(wrap) {
  const label = wrap.querySelector("label, legend");
  return label ? label.textContent.trim() : wrap.dataset.field;
}

/* The player changed a field: one `set`, made from the value the page last knew for it
 * (its own queued change of that field first, else the value the field was drawn with). */
function changed(wrap, delay, typing) {
  builder = document.getElementById("builder") || builder;
  if (!builder || !builder.contains(wrap) || !wrap.dataset.param) { return; }
  if (wrap.classList.contains("conflicted")) { return; }  // a choice to make first
  const target = targetOf(wrap);
  const field = wrap.dataset.field;
  const value = readValue(wrap);
  if (value === undefined) { return; }
  const queued = queue.lastSet(army, target, field);
  // (a field drawn from before its last saved change, an editor fetched as it landed: from what was saved)
  const from = queued ? queued.value : savedSince(army, target, field, fromOf(wrap));
  if (sameValue(value, from)) { return; }  // nothing new
  // a keystroke says so: the server folds it into the same field's revision of a moment
  // ago, so a word typed key by key is one change in History and one Undo
  queue.enqueue(record({ op: "set", target: target, field: field, value: value, from: from,
                         label: fieldLabel(wrap), typing: !!typing }), delay);
  showState(target, field, { state: "saving" });
  if (target === "army" && field === "name") { showTitle(army); }
}

document.addEventListener("input", (event) => {
  const wrap = wrapOf(event.target);
  if (!wrap) { return; }
  const typed = /^(text|number|search|email|url)$/.test(event.target.type) || event.target.tagName === "TEXTAREA";
  changed(wrap, typed ? TYPING_MS : 0, typed);
});
document.addEventListener("change", (event) => {
  const wrap = wrapOf(event.target);
  if (wrap) { changed(wrap, 0); }
});

// -- actions ---------------------------------------------------------------------------

function labelOf(element) {
  const entry = element.querySelector(".entry-name");  // a tile of the picker: its unit
  if (entry) { return "Add " + entry.textContent.trim(); }
  const select = element.form && element.form.querySelector("select[name=preset]");
  if (select && element.dataset.op !== "delete" && select.selectedOptions[0]) {
    return "Add " + select.selectedOptions[0].textContent.trim();
  }
  return (element.getAttribute("aria-label") || element.textContent || "a change").trim().replace(/\s+/g, " ").slice(0, 80);
}

function actionOf(form, submitter) {
  const from = submitter && submitter.dataset.op ? submitter : form;
  const op = from.dataset.op;
  const made = { op: op, target: from.dataset.target || form.dataset.target || "army",
                 field: from.dataset.field || form.dataset.field || "", label: labelOf(submitter || form) };
  if (op === "add") {
    const chosen = submitter && submitter.name === "preset" ? submitter.value
      : (form.querySelector("[name=preset]") || {}).value;
    made.value = { id: newItemId() };
    if (chosen) { made.value.preset = chosen; }
  } else if (op === "duplicate") {
    made.value = { id: newItemId() };
  } else if (op === "move") {
    made.value = from.dataset.value;
  } else if (from.dataset.value !== undefined) {
    made.value = JSON.parse(from.dataset.value);
  }
  return made;
}

// capture: the form is the client's before htmx or the browser posts it
document.addEventListener("submit", (event) => {
  const form = event.target;
  builder = document.getElementById("builder") || builder;  // drawn again by an undo
  if (!builder || !builder.contains(form)) { return; }
  const submitter = event.submitter;
  if ((submitter && submitter.dataset.op) || form.dataset.op) {
    event.preventDefault();
    event.stopPropagation();
    if (submitter && submitter.getAttribute("aria-disabled") === "true") { return; }
    optimistic.queued(queue.enqueue(record(actionOf(form, submitter)), 0));
    showCount(army);
    return;
  }
  if (form.querySelector("[data-field]")) {
    // Enter in a field: its change goes now (every field is saved on its own)
    event.preventDefault();
    event.stopPropagation();
    const wrap = wrapOf(document.activeElement);
    if (wrap && form.contains(wrap)) { changed(wrap, 0); }
  }
}, true);

// A conflict: "Keep mine" saves this page's value over theirs; "Use theirs" shows theirs
// and makes it the value to change from.
document.addEventListener("click", (event) => {
  const button = event.target.closest ? event.target.closest("[data-conflict]") : null;
  const wrap = button ? wrapOf(button) : null;
  if (!wrap) { return; }
  const target = targetOf(wrap);
  const field = wrap.dataset.field;
  wrap.dataset.from = button.dataset.theirs;
  wrap.classList.remove("conflicted");
  conflicts.forget(army, target, field);
  if (button.dataset.conflict === "theirs") {
    writeValue(wrap, JSON.parse(button.dataset.theirs));
    clearState(target, field);
    showState(target, field, { state: "saved" });
    morph.redrawn(versionNow());  // the card is the server's drawing again (its points too)
    return;
  }
  clearState(target, field);
  showState(target, field, { state: "saving" });
  changed(wrap, 0);
});

// -- answers ---------------------------------------------------------------------------

const GONE = "that unit was deleted elsewhere";

function showResult(sent, result) {
  const status = result.status;
  const ok = status === "applied" || status === "duplicate";
  if (sent.op !== "set") {
    if (!ok) { showProblem("Not saved: " + sent.label + ": " + (status === "gone" ? GONE : result.message || status)); }
    return;
  }
  const newer = queue.lastSet(sent.army, sent.target, sent.field);
  const wrap = sent.army === army ? wrapFor(sent.target, sent.field) : null;
  if (ok) {
    const saved = status === "applied" && "value" in result ? result.value : sent.value;
    if (status === "applied" && sent.army === army) { remember(army, sent, saved, result.version); }
    if (!newer) { conflicts.forget(sent.army, sent.target, sent.field); }
    if (wrap && !newer) {
      wrap.dataset.from = JSON.stringify(saved);
      // a field drawn again meanwhile from before the change (an editor fetched as the
      // page loaded) shows what was saved, unless the player is in it
      if (!wrap.contains(document.activeElement) && !sameValue(readValue(wrap), saved)) { writeValue(wrap, saved); }
    }
    if (!newer) { showState(sent.target, sent.field, { state: "saved" }); }
    return;
  }
  if (newer) { return; }  // the player changed it again: that change's answer tells
  const title = document.getElementById("army-title");
  if (title && sent.target === "army" && sent.field === "name") {
    // not saved: the heading names the army as saved
    const saved = status === "conflict" ? result.theirs : (wrap ? fromOf(wrap) : null);
    if (typeof saved === "string" && saved) { title.textContent = saved; }
  }
  if (status === "conflict") {
    conflicts.remember(sent.army, sent.target, sent.field, result.theirs, sent.value);
    showState(sent.target, sent.field, { state: "conflict", reason: "changed elsewhere, choose a value",
                                         theirs: result.theirs, mine: sent.value, html: result.html });
  } else {
    showState(sent.target, sent.field, { state: "refused", html: result.html,
                                         reason: status === "gone" ? GONE : result.message || "the server refused this value" });
    // its card goes with the next drawing: said in the unit's place, with the value typed
    if (status === "gone" && sent.army === army && !showGone(sent, GONE)) { showProblem("Not saved: " + sent.label + ": " + GONE); }
  }
}

/* The answer's out-of-band parts, ready to apply; null when one has no place on the page
 * (a card to put after one this page does not show, the summary of a unit it does not
 * show): the page is then fetched and morphed. A card's menus while its editor was never
 * loaded have nothing on the page to update and are left out. */
function onPage(html, batch) {
  const template = document.createElement("template");
  template.innerHTML = html;
  let missing = false;
  Array.from(template.content.children).forEach((part) => {
    const spec = part.getAttribute("hx-swap-oob");
    if (spec === null) { return; }
    const colon = spec.indexOf(":");
    const selector = colon >= 0 ? spec.slice(colon + 1) : (part.id ? "#" + CSS.escape(part.id) : "");
    if (selector && !document.querySelector(selector)) {
      if (colon >= 0 || part.classList.contains("item-summary")) { missing = true; }
      part.remove();
      return;
    }
    if (colon >= 0) { keepTheirCard(part, batch); }  // a card put in place
    // a control with a change of the player's still unanswered keeps what the player chose
    // (that change's own answer redraws it)
    if (part.dataset.field && queue.lastSet(army, part.dataset.target || "army", part.dataset.field)) {
      part.remove();
    }
  });
  return missing ? null : template.innerHTML;
}

/* The highest army version this tab's own answers brought (kept for the tab's next page:
 * a reload's own changes landing are not "from another tab or device"). */
function ownVersion() {
  if (army === null) { return 0; }
  if (queue.pending(army).length) { return Infinity; }  // its own changes still landing
  try { return Number(window.sessionStorage.getItem("muster:own:" + army) || 0); } catch (e) { return 0; }
}

function mine(version) {
  if (army === null || !(version > 0)) { return; }
  try {
    const key = "muster:own:" + army;
    if (Number(window.sessionStorage.getItem(key) || 0) < version) { window.sessionStorage.setItem(key, String(version)); }
  } catch (e) { /* no storage: only the notice may show */ }
}

/* The device's copy for offline follows what landed: the service worker keeps this army's
 * page (and its cards' editors) again at once, and says which version it kept. */
function keepCopy() {
  const workers = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  if (workers && workers.controller && army !== null) {
    workers.controller.postMessage({ type: "landed", path: "/armies/" + army + "/" });
  }
}
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "kept" && army !== null && data.path === "/armies/" + army + "/") {
      document.documentElement.dataset.keptVersion = String(data.version);
    }
  });
}

/* An answer's drawing, applied in version order: one that follows the version on screen
 * is applied (out-of-band parts, or the whole builder morphed); one no newer than the
 * screen is dropped; any other (a gap: a change from elsewhere came between, an answer
 * lost on the way) makes the page fetch the builder once and morph it in. */
function applyAnswer(answer, batch) {
  const now = versionNow() || 0;
  const version = Number(answer.version);
  if (!(version > now)) { return Promise.resolve(false); }
  if (!answer.html || answer.follows !== now || redrawAfterResend) { return redraw.redraw(false).then(() => true); }
  const template = document.createElement("template");
  template.innerHTML = answer.html;
  // (":scope" matches nothing in a fragment: its top elements are looked at themselves)
  if (Array.from(template.content.children).some((part) => part.id === "builder")) {
    return morph.morphHtml(answer.html).then(() => true);
  }
  const parts = onPage(answer.html, batch);
  if (parts === null) { return redraw.redraw(false).then(() => true); }  // could not be applied
  if (window.htmx) { window.htmx.swap(document.body, parts, { swapStyle: "none" }); }
  const input = document.getElementById("army-version");
  if (input) { input.value = String(version); }
  morph.redrawn(version);
  return Promise.resolve(true);
}

queue.on("answered", (sentArmy, batch, answer) => {
  redraw.answeredOnce();
  (answer.results || []).forEach((result) => {
    const sent = batch.find((r) => r.key === result.key);
    if (sent) { showResult(sent, result); }
  });
  if (channel && answer.version) { channel.postMessage({ army: sentArmy, version: answer.version }); }
  if (sentArmy !== army) { showCount(army); return; }
  mine(Number(answer.version));
  const more = queue.pending(army).length > 0;
  const results = answer.results || [];
  const fallback = !answer.html;
  applyAnswer(answer, batch).then((drawn) => {
    // not drawn (the page shows that version already: a copy of the batch sent as the last
    // page left landed before this page was drawn): what the page drew ahead of the server
    // for it goes now, or a move would show twice
    if (!drawn) { optimistic.lay(); }
    keepCopy();
    if (!more) { redrawAfterResend = false; }
    if (fallback) { drawToast(batch, results); }
    openAdded(batch, results);
    showRolled(batch, results);
    showCount(army);
  });
});

queue.on("failed", (batch, why) => {
  batch.forEach((sent) => {
    if (sent.op === "set" && sent.army === army) { showState(sent.target, sent.field, { state: "failed", reason: why }); }
  });
  showCount(army);
});
queue.on("changed", () => showCount(army));

// -- what the page shows stays the player's ---------------------------------------------

/* A field with a queued change, a refused value or a conflict's choice keeps the player's
 * value through a redraw or an out-of-band swap. */
function keep(wrap) {
  if (!wrap.dataset || !wrap.dataset.field || army === null) { return false; }
  if (wrap.classList.contains("conflicted") || wrap.classList.contains("invalid")) { return true; }
  return !!queue.lastSet(army, targetOf(wrap), wrap.dataset.field);
}

/* Queued values put back on their fields (drawn again, or drawn for the first time: a
 * card's editor loaded when opened), and every field's state shown again. */
/* A card drawn closed whose unit has a change waiting: its editor is fetched now (from the
 * service worker offline), so the change is put back in its field and shown as waiting. */
function loadEditor(target) {
  const slot = document.querySelector(`#unit-${CSS.escape(target)}-editor.pending-editor, #general-${CSS.escape(target)}-editor.pending-editor`);
  if (!slot || slot.dataset.loading || !window.htmx) { return; }
  slot.dataset.loading = "1";
  window.htmx.ajax("GET", slot.getAttribute("hx-get"), { target: slot, swap: "outerHTML" });
}

function reapply() {
  if (army === null) { return; }
  showTitle(army);
  catchUp(army, keep);
  queue.pending(army).forEach((r) => {
    if (r.op !== "set") { return; }
    const wrap = wrapFor(r.target, r.field);
    if (!wrap) { loadEditor(r.target); return; }
    if (!sameValue(readValue(wrap), r.value)) {
      writeValue(wrap, r.value);
      // said as an edit, so what follows a field's value (the points estimate) follows it
      // too; this module sees its own queued value and queues nothing more
      const control = wrap.querySelector("input:not([type=hidden]), select, textarea");
      if (control) { control.dispatchEvent(new Event("input", { bubbles: true })); }
    }
    if (!stateOf(r.target, r.field)) { showState(r.target, r.field, { state: "saving" }); }
  });
  conflicts.restore(army, loadEditor);
  repaint(document);
  showCount(army);
}

morph.on("keep", keep);
morph.on("going", (cardId) => army !== null && queue.pending(army)
  .some((r) => r.op === "delete" && ("unit-" + r.target === cardId || "general-" + r.target === cardId)));
redraw.on("own", ownVersion);
redraw.on("after", reapply);
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  if (target && keep(target)) { event.detail.shouldSwap = false; }
});
// the picker's tiles are tapped while answers land: morphed, a tap is never lost
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const detail = event.detail;
  const target = detail.target;
  const fresh = detail.fragment && detail.fragment.firstElementChild;
  if (!detail.shouldSwap || !target || target.id !== "add-unit-panel" || !fresh || fresh.id !== target.id) { return; }
  detail.shouldSwap = false;
  morph.morphPart(target, fresh);
});
document.addEventListener("htmx:load", () => reapply());
document.addEventListener("muster:redrawn", (event) => {
  if (army !== null) { sawSaved(army, Number(event.detail && event.detail.version)); }
  showCopyAge(army);
  reapply();
});
// Undo (a form whose answer is the whole builder): morphed in, the player's cards stay open
document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target;
  if (!target || target.id !== "builder" || !event.detail.shouldSwap) { return; }
  event.detail.shouldSwap = false;
  redraw.answeredOnce();
  morph.morphHtml(event.detail.serverResponse).then(() => {
    // this tab's own change, as an answer of the queue's is: the device's copy for offline
    // follows it at once (not once changes settle), and the tab's other pages are told
    const version = versionNow();
    mine(version);
    keepCopy();
    if (channel && army !== null && version) { channel.postMessage({ army: army, version: version }); }
    showCount(army);
  });
});
document.addEventListener("htmx:afterSettle", () => reapply());

// -- always current --------------------------------------------------------------------

if (channel) {
  channel.onmessage = (event) => {
    const data = event.data || {};
    if (army !== null && data.army === army && Number(data.version) !== versionNow()) { redraw.redraw(true); }
  };
}

function arrive() {
  return conflicts.load(army).then(() => queue.load()).then((stored) => {
    reapply();
    optimistic.lay();
    if (army !== null && stored.some((r) => r.army === army)) { redrawAfterResend = true; }
    queue.sendAll();
  });
}

// back online: what waits is sent, and the builder fetched once if it moved on meanwhile
window.addEventListener("online", () => { arrive().then(() => freshen()); showCount(army); });

/* A page opened from the device's copy may hold cards' editors kept from before its last
 * saved change (the copy of the page caught up, not yet every editor in it): online, it is
 * morphed into the server's drawing whatever its version, which fetches those editors again. */
function freshen() {
  return document.documentElement.hasAttribute("data-offline-copy") ? redraw.redraw(false) : redraw.check();
}
window.addEventListener("offline", () => {
  queue.pending(army === null ? undefined : army).forEach((r) => {
    if (r.op === "set" && r.army === army && !queue.isFlying(r)) {
      showState(r.target, r.field, { state: "failed", reason: "offline, sent when the connection returns" });
    }
  });
  showCount(army);
});
window.addEventListener("pageshow", (event) => {
  if (event.persisted) {
    queue.stay();
    arrive();
    redraw.check();
  }
});
// a tab shown again asks at once: follow.js

// Leaving: ask only while something is really unsent; from here on answers delete nothing
window.addEventListener("beforeunload", (event) => {
  queue.startLeaving();
  if (queue.pending().length) {
    event.preventDefault();
    event.returnValue = "";
  }
});
window.addEventListener("pagehide", () => queue.sendOnLeaving());
// the player is still here (the question answered "stay")
["pointerdown", "keydown"].forEach((name) => document.addEventListener(name, () => queue.stay(), true));

function start() {
  builder = document.getElementById("builder");
  army = builder && builder.dataset.army ? Number(builder.dataset.army) : null;
  store.warm();
  const navigation = (performance.getEntriesByType("navigation")[0] || {}).type;
  // Back, or a reload: the page may be older than the army (a change this page sent as it
  // left can land just after the server drew the new one), so its version is asked now
  // and once more a second later
  const copy = document.documentElement.hasAttribute("data-offline-copy");
  if (army !== null && !copy) { sawSaved(army, versionNow()); }
  showCopyAge(army);
  // what the player typed before this script came (a slow link, a slow phone) is sent as
  // if typed now; not on Back, whose restored fields were the page's as it was left
  const early = navigation === "back_forward" || copy || !builder ? []
    : Array.from(builder.querySelectorAll("[data-field][data-param]")).filter((wrap) => {
      const value = readValue(wrap);
      return value !== undefined && !sameValue(value, fromOf(wrap));
    });
  arrive().then(() => {
    // what this device still had to send is laid on the page and on its way (tests wait on it)
    document.documentElement.dataset.queueRead = "1";
    early.forEach((wrap) => { if (wrap.isConnected) { changed(wrap, 0); } });
    if (navigation === "back_forward" || navigation === "reload" || copy) {
      freshen();
      setTimeout(() => redraw.check(), 1000);
    }
  });
}

if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
