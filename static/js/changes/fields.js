/* The builder's field controls as the change protocol sees them.
 *
 * A field is a wrapper [data-field] with data-target ("army" or a unit's or general's id),
 * data-field (the document's field name), data-param (its controls' form name) and
 * data-from (JSON of the value it was drawn with). Its value is read from the controls as
 * the document's JSON value (the server's parser stays the judge), and written back when a
 * queued value is put on a redrawn control. Each field shows saving / saved / not saved. */

export function wrapOf(element) {
  return element && element.closest ? element.closest("[data-field]") : null;
}

export function targetOf(wrap) {
  return wrap.dataset.target || "army";
}

export function fieldKey(target, field) {
  return target + " " + field;
}

export function wrapFor(target, field) {
  const found = document.querySelectorAll("[data-field][data-target]");
  for (const wrap of found) {
    if (wrap.dataset.field === field && wrap.dataset.target === target) { return wrap; }
  }
  return null;
}

export function fromOf(wrap) {
  try { return JSON.parse(wrap.dataset.from || "null"); } catch (e) { return null; }
}

function named(root, name) {
  return Array.from(root.querySelectorAll("input[name], select[name], textarea[name]"))
    .filter((c) => c.name === name);
}

function numericChoices(select) {
  const values = Array.from(select.options || []).map((o) => o.value).filter((v) => v !== "");
  return values.length > 0 && values.every((v) => /^-?\d+(\.\d+)?$/.test(v));
}

// A choice's option value ("" none, "true", "3") as the document's value
function choice(text, numeric) {
  if (text === "") { return null; }
  if (text === "true") { return true; }
  if (text === "false") { return false; }
  if (numeric && /^-?\d+(\.\d+)?$/.test(text)) { return Number(text); }
  return text;
}

function readNamed(root, name, from) {
  const controls = named(root, name);
  const shown = controls.filter((c) => c.type !== "hidden");
  if (!shown.length) { return undefined; }
  const first = shown[0];
  if (first.tagName === "SELECT") { return choice(first.value, numericChoices(first) || typeof from === "number"); }
  if (first.type === "checkbox") {
    const hidden = controls.find((c) => c.type === "hidden");
    if (shown.length === 1 && first.value === "1" && hidden && hidden.value === "0") { return first.checked; }
    const numeric = shown.every((c) => /^-?\d+(\.\d+)?$/.test(c.value));
    return shown.filter((c) => c.checked).map((c) => choice(c.value, numeric));
  }
  if (first.type === "number") {
    const text = first.value.trim();
    if (text === "") { return null; }
    const number = Number(text);
    return Number.isFinite(number) ? number : text;  // letters: the server names the field
  }
  if (first.value === "" && from === null) { return null; }
  return first.value;
}

/* The field's value as the document would hold it. */
export function readValue(wrap) {
  const param = wrap.dataset.param;
  const from = fromOf(wrap);
  if (!wrap.classList.contains("object")) { return readNamed(wrap, param, from); }
  const toggle = named(wrap, param).find((c) => c.type === "checkbox");
  if (toggle && !toggle.checked) { return null; }
  const value = {};
  const inner = from && typeof from === "object" ? from : {};
  wrap.querySelectorAll("input[name], select[name], textarea[name]").forEach((c) => {
    if (c.name.indexOf(param + ".") !== 0) { return; }
    const sub = c.name.slice(param.length + 1);
    if (sub in value) { return; }
    const read = readNamed(wrap, c.name, inner[sub] === undefined ? null : inner[sub]);
    if (read !== undefined) { value[sub] = read; }
  });
  return value;
}

function asText(value) {
  if (value === null || value === undefined) { return ""; }
  return String(value);
}

function writeNamed(root, name, value) {
  const shown = named(root, name).filter((c) => c.type !== "hidden");
  if (!shown.length) { return; }
  const first = shown[0];
  if (first.type === "checkbox" && shown.length === 1 && first.value === "1" && !Array.isArray(value)) {
    first.checked = !!value;
    return;
  }
  if (first.type === "checkbox") {
    const chosen = (Array.isArray(value) ? value : []).map(asText);
    shown.forEach((c) => { c.checked = chosen.indexOf(c.value) !== -1; });
    return;
  }
  const text = asText(value);
  if (first.value !== text) { first.value = text; }
}

/* Puts a value (a queued change's) back on the field's controls. */
export function writeValue(wrap, value) {
  const param = wrap.dataset.param;
  if (!wrap.classList.contains("object")) { writeNamed(wrap, param, value); return; }
  const toggle = named(wrap, param).find((c) => c.type === "checkbox");
  if (toggle) { toggle.checked = value !== null; }
  if (value && typeof value === "object") {
    Object.keys(value).forEach((sub) => writeNamed(wrap, param + "." + sub, value[sub]));
  }
}

export function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// -- what each field shows ------------------------------------------------------------

// target+field -> {state, reason, html, theirs}: put back on a field drawn again
const states = new Map();

function messageBox(wrap) {
  return wrap.querySelector(":scope > .field-msg") || wrap.querySelector(".field-msg");
}

function markInvalid(wrap, invalid) {
  wrap.classList.toggle("invalid", invalid);
  wrap.querySelectorAll("input:not([type=hidden]), select, textarea").forEach((control) => {
    if (invalid) { control.setAttribute("aria-invalid", "true"); } else { control.removeAttribute("aria-invalid"); }
  });
}

function conflictChoice(theirs, mine) {
  const box = document.createElement("span");
  box.className = "conflict-choice";
  box.setAttribute("role", "alert");
  const text = document.createElement("span");
  const shown = (v) => (v === null || v === undefined ? "nothing" : typeof v === "object" ? JSON.stringify(v) : String(v));
  text.append("Changed somewhere else to ");
  const a = document.createElement("strong");
  a.textContent = shown(theirs);
  const b = document.createElement("strong");
  b.textContent = shown(mine);
  text.append(a, "; yours is ", b, ".");
  box.append(text);
  [["mine", "Keep mine"], ["theirs", "Use theirs"]].forEach(([which, label]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.dataset.conflict = which;
    button.dataset.theirs = JSON.stringify(theirs === undefined ? null : theirs);
    button.textContent = label;
    box.append(" ", button);
  });
  return box;
}

function paint(wrap, shown) {
  let box = wrap.querySelector(":scope > .field-state");
  if (!box) {
    box = document.createElement("span");
    box.className = "field-state";
    box.setAttribute("aria-live", "polite");
    wrap.appendChild(box);
  }
  wrap.dataset.state = shown.state;
  box.textContent = shown.state === "saving" ? "Saving…" : shown.state === "saved" ? "Saved"
    : "Not saved: " + (shown.reason || "no answer from the server");
  const refused = shown.state === "refused" || shown.state === "conflict";
  if (refused) { wrap.dataset.state = "failed"; }
  wrap.classList.toggle("conflicted", shown.state === "conflict");
  markInvalid(wrap, shown.state === "refused");
  const msg = messageBox(wrap);
  if (!msg) { return; }
  if (!refused) { msg.textContent = ""; return; }
  if (shown.html) {
    msg.innerHTML = shown.html;  // the server's own markup for this field's message
  } else if (shown.state === "conflict") {
    msg.replaceChildren(conflictChoice(shown.theirs, shown.mine));
  } else {
    const alert = document.createElement("span");
    alert.setAttribute("role", "alert");
    alert.textContent = "Not saved: " + shown.reason;
    msg.replaceChildren(alert);
  }
}

/* state: saving | saved | failed (not sent yet: retried) | refused | conflict */
export function showState(target, field, shown) {
  states.set(fieldKey(target, field), shown);
  const wrap = wrapFor(target, field);
  if (wrap) { paint(wrap, shown); }
  showUnsaved();
}

export function stateOf(target, field) {
  return states.get(fieldKey(target, field)) || null;
}

export function clearState(target, field) {
  states.delete(fieldKey(target, field));
}

/* Fields drawn again (a redraw, an out-of-band swap, a card's editor loaded later) show
 * their state again. */
export function repaint(root) {
  (root || document).querySelectorAll("[data-field][data-target]").forEach((wrap) => {
    const shown = states.get(fieldKey(wrap.dataset.target, wrap.dataset.field));
    if (shown && wrap.dataset.state !== shown.state) { paint(wrap, shown); }
  });
  showUnsaved();
}

/* A card with a conflict to settle says so on its head, open or closed (its editor may
 * not even be drawn). */
function markCards() {
  const conflicted = new Set();
  states.forEach((shown, key) => { if (shown.state === "conflict") { conflicted.add(key.split(" ")[0]); } });
  document.querySelectorAll("#builder li.item").forEach((card) => {
    const target = card.id.replace(/^(unit|general)-/, "");
    const head = card.querySelector("summary.card-head");
    let mark = card.querySelector(".conflict-mark");
    if (conflicted.has(target) && head && !mark) {
      mark = document.createElement("span");
      mark.className = "conflict-mark";
      mark.textContent = "Changed elsewhere: open to choose a value";
      head.appendChild(mark);
    } else if (!conflicted.has(target) && mark) {
      mark.remove();
    }
  });
}

/* The totals say "not saved" while any field holds a value the server refused. */
export function showUnsaved() {
  markCards();
  const box = document.getElementById("unsaved");
  if (!box) { return; }
  const count = document.querySelectorAll("[data-field].invalid, [data-field].conflicted").length;
  box.hidden = count === 0;
  box.textContent = count === 1 ? "1 change not saved: see the marked field"
    : count + " changes not saved: see the marked fields";
}
