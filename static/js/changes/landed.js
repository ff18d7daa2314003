/* What the page does once actions landed: a unit just added (or duplicated) is drawn open
 * with its name field focused, and, while the server's answer brings no out-of-band html
 * (the toast among it), the "Undo" toast of a delete or a roll is drawn here from the
 * redrawn page's Undo target (the change it shows last). */

const TOASTED = { delete: (label) => label.replace(/^Delete\b/, "Deleted"), roll: () => "Rolled a force" };

/* A rolled force: its units are shown (the roll button sits above them). */
export function showRolled(batch, results) {
  const rolled = batch.some((sent) => sent.op === "roll" && results.some((r) => r.key === sent.key && r.status === "applied"));
  const first = rolled ? document.querySelector("#unit-list > li.item") : null;
  if (first) { first.scrollIntoView({ block: "nearest" }); }
}

// When the player last opened a card by hand (ms): an add answered later (a slow link)
// does not close the card they went on to, one card of the list being open at a time.
let openedByHand = { at: 0, card: "" };
document.addEventListener("click", (event) => {
  const summary = event.target.closest ? event.target.closest("li.item > details > summary") : null;
  if (summary) { openedByHand = { at: Date.now(), card: summary.closest("li.item").id }; }
}, true);

function movedOn(batch, cardId) {
  const made = batch.filter((sent) => sent.op === "add" || sent.op === "duplicate").map((sent) => sent.seq || 0);
  // a record's seq is the time it was made, in µs (queue.nextSeq)
  return made.length > 0 && openedByHand.at * 1000 > Math.min(...made) && openedByHand.card !== cardId;
}

/* The cards an answer puts in place (`parts`: its out-of-band html, not yet swapped) come
 * closed when the player opened another card since the add was made. */
export function keepTheirCard(parts, batch) {
  parts.querySelectorAll("li.item > details[open]").forEach((details) => {
    if (!movedOn(batch, details.parentNode.id)) { return; }
    details.removeAttribute("open");
    details.removeAttribute("data-open");
  });
}

export function openAdded(batch, results) {
  const added = batch.filter((sent) => (sent.op === "add" || sent.op === "duplicate") && sent.value && sent.value.id
    && results.some((r) => r.key === sent.key && r.status === "applied"));
  const last = added[added.length - 1];
  if (!last) { return; }
  const card = document.getElementById("unit-" + last.value.id) || document.getElementById("general-" + last.value.id);
  if (movedOn([last], card ? card.id : "")) { return; }
  const details = card ? card.querySelector("details") : null;
  if (!details) { return; }
  details.open = true;
  const name = card.querySelector("input[name='f.name']");
  if (name && !document.activeElement.closest("[data-field]")) { name.focus({ preventScroll: false }); }
}

export function drawToast(batch, results) {
  const toast = document.getElementById("toast");
  const builder = document.getElementById("builder");
  const target = document.getElementById("undo-revision");
  const token = document.querySelector("input[name=csrfmiddlewaretoken]");
  const done = batch.filter((sent) => TOASTED[sent.op] && results.some((r) => r.key === sent.key && r.status === "applied"));
  const last = done[done.length - 1];
  if (!toast || !builder || !target || !target.value || !last) { return; }
  const box = document.createElement("div");
  box.className = "toast-box";
  const summary = document.createElement("span");
  summary.textContent = TOASTED[last.op](last.label || "");
  const form = document.createElement("form");
  form.method = "post";
  form.action = builder.dataset.undoUrl;
  form.setAttribute("hx-post", builder.dataset.undoUrl);
  form.setAttribute("hx-target", "#builder");
  form.setAttribute("hx-swap", "outerHTML");
  const csrf = document.createElement("input");
  csrf.type = "hidden";
  csrf.name = "csrfmiddlewaretoken";
  csrf.value = token ? token.value : "";
  const revision = document.createElement("input");
  revision.type = "hidden";
  revision.name = "revision";
  revision.value = target.value;
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "toast-undo";
  button.textContent = "Undo";
  form.append(csrf, revision, button);
  box.append(summary, form);
  toast.replaceChildren(box);
  if (window.htmx) { window.htmx.process(toast); }
}

/* An edit refused because its unit is gone (deleted on another device or tab) is said where
 * the player typed it: a note in the unit's place in its list, with the value typed, until
 * dismissed; the card itself goes with the server's drawing. Each card's place (the card
 * before it) and name are remembered as drawn, so the note finds the place of a card a
 * drawing took away before the answer came. */
const places = {};                // card id -> { before: the previous card's id, name }
const notes = new Map();          // note id -> { note, card, before }

function remember() {
  document.querySelectorAll("li.item[id]").forEach((card) => {
    let previous = card.previousElementSibling;
    while (previous && !previous.classList.contains("item")) { previous = previous.previousElementSibling; }
    const name = card.querySelector(".item-name");
    places[card.id] = { before: previous ? previous.id : "",
                        list: card.parentNode.id, name: name ? name.textContent.trim() : "" };
  });
}

function place(entry) {
  const card = document.getElementById(entry.card);
  if (card) {
    if (card.nextElementSibling !== entry.note) { card.after(entry.note); }
  } else {
    const before = entry.before ? document.getElementById(entry.before) : null;
    const list = document.getElementById(entry.list);
    if (before) {
      if (before.nextElementSibling !== entry.note) { before.after(entry.note); }
    } else if (list && list.firstElementChild !== entry.note) {
      list.prepend(entry.note);
    }
  }
  // the player was typing in the card that went: they are told there
  if (entry.note.dataset.focus && entry.note.isConnected && !document.getElementById(entry.card)
      && (!document.activeElement || document.activeElement === document.body)) {
    delete entry.note.dataset.focus;
    entry.note.focus({ preventScroll: true });
  }
}

function placeAll() {
  remember();
  notes.forEach(place);
}

["muster:morphed", "muster:redrawn", "htmx:afterSettle"].forEach((name) => document.addEventListener(name, placeAll));
if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", remember); } else { remember(); }

function shown(value) {
  if (value === null || value === undefined || value === "") { return "(empty)"; }
  return typeof value === "string" ? "“" + value + "”" : JSON.stringify(value);
}

/* `sent`: the refused `set` (its target, field label and value); `reason`: why. False when
 * the unit's place is not known (never drawn on this page): the caller says it elsewhere. */
export function showGone(sent, reason) {
  remember();
  const id = ["unit-", "general-"].map((p) => p + sent.target).find((c) => document.getElementById(c) || places[c]);
  if (!id) { return false; }
  const card = document.getElementById(id);
  const known = places[id] || {};
  const noteId = "gone-" + sent.target;
  const old = notes.get(noteId);
  const note = old ? old.note : document.createElement("li");
  note.id = noteId;
  note.className = "gone-note";
  note.tabIndex = -1;
  const label = (sent.label || sent.field) + (known.name ? " of " + known.name : "");
  const said = document.createElement("p");  // (a list's item keeps its role: the alert is inside)
  said.className = "notice error";
  said.setAttribute("role", "alert");
  said.textContent = "Not saved: " + label + " " + shown(sent.value) + ": " + reason + ". ";
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.textContent = "Dismiss";
  dismiss.addEventListener("click", () => { notes.delete(noteId); note.remove(); });
  said.append(dismiss);
  note.replaceChildren(said);
  if (!card || card.contains(document.activeElement)) { note.dataset.focus = "1"; }
  const entry = { note: note, card: id, before: known.before || "", list: known.list || "unit-list" };
  notes.set(noteId, entry);
  place(entry);
  return true;
}
