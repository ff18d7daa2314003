/* The list editor on Muster's one change protocol: every change is an operation
 * {key, army, base_version, op, section, target, field, value, from} put in the device's
 * durable change queue (changes/queue.js, IndexedDB through changes/store.js) and sent, in
 * order, to the list's operations/ (army: "list-<pk>", so the builder's pages send a
 * list's waiting changes too). An item is named by its stable id (target), never by its
 * place; "from" is the value the page drew, so a field another tab changed meanwhile
 * comes back as a conflict at that field, never saved over.
 *
 * A field is sent when the player leaves it; buttons (add, remove, undo, redo, "Use 4", a
 * "Then ..." step) queue the same way. Each field says saving / saved / not saved. The
 * answer's drawing of the editor is put in place once none of this list's changes wait,
 * keeping the focused field and every value still waiting. Offline, changes wait in the
 * store, survive a reload (the page kept by the service worker shows them again) and are
 * sent when the connection returns. Another tab's or device's changes come in by
 * themselves (list-follow.js), never over a field being typed, waiting or in conflict.
 * Without JavaScript each field has a Save button. */
import { onceKey } from "./changes/keys.js";
import * as queue from "./changes/queue.js";
import * as store from "./changes/store.js";
import { followList } from "./list-follow.js";

const editor = () => document.getElementById("list-editor");
const conflicts = {};   // "target|field" -> {message, theirs, mine, section, op}
let swapping = false;
let scope = null;
let following = null;   // the list followed (list-follow.js): another tab's changes come in

function controlsOf(form) {
  return Array.from(form.querySelectorAll("input:not([type=hidden]), select, textarea"));
}

function hidden(form, name) {
  const input = form.querySelector('input[type=hidden][name="' + name + '"]');
  return input ? input.value : "";
}

/* What the form's control says now (`drawn`: as the server drew it). */
function valueOf(form, drawn) {
  const op = hidden(form, "op");
  const controls = controlsOf(form);
  if (op === "values") {
    return controls.filter((c) => (drawn ? c.defaultChecked : c.checked)).map((c) => c.value).sort();
  }
  const c = controls[0];
  if (!c) { return ""; }
  if (c.type === "checkbox") { return (drawn ? c.defaultChecked : c.checked) ? "true" : "false"; }
  if (c.tagName === "SELECT") {
    if (!drawn) { return c.value; }
    const chosen = Array.from(c.options).find((o) => o.defaultSelected) || c.options[0];
    return chosen ? chosen.value : "";
  }
  return drawn ? c.defaultValue : c.value;
}

function writeValue(form, value) {
  const controls = controlsOf(form);
  if (Array.isArray(value)) {
    controls.forEach((c) => { c.checked = value.indexOf(c.value) >= 0; });
    return;
  }
  const c = controls[0];
  if (!c) { return; }
  if (c.type === "checkbox") { c.checked = value === "true"; } else { c.value = value; }
}

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function where(form) {
  return { op: hidden(form, "op"), section: hidden(form, "section"), target: hidden(form, "item"),
           field: hidden(form, "field") };
}

function slot(target, field) { return target + "|" + field; }

function formFor(target, field) {
  const root = editor();
  if (!root) { return null; }
  return Array.from(root.querySelectorAll('form[data-edit="field"]')).find((form) => {
    const at = where(form);
    return at.target === target && at.field === field;
  }) || null;
}

function lastOf(target, field) {
  const mine = queue.pending(scope).filter((r) => r.target === target && r.field === field
    && (r.op === "set" || r.op === "values" || r.op === "meta"));
  return mine.length ? mine[mine.length - 1] : null;
}

function version() {
  const root = editor();
  return root && Number(root.dataset.revision) > 0 ? Number(root.dataset.revision) : undefined;
}

function record(fields) {
  const root = editor();
  return Object.assign({ key: onceKey(), army: scope, base_version: version(), section: "",
                         target: "", field: "", value: "", url: root.dataset.operationsUrl,
                         label: "" }, fields);
}

// -- marks: saving / saved / not saved ---------------------------------------------------

function mark(form, state, why) {
  if (!form) { return; }
  form.dataset.state = state;
  let said = form.querySelector(".change-state");
  if (!said) {
    said = document.createElement("span");
    said.className = "change-state";
    said.setAttribute("role", "status");
    form.appendChild(said);
  }
  said.textContent = state === "saving" ? "Saving…" : state === "saved" ? "Saved"
    : state === "failed" ? "Not saved yet: " + why : "";
}

function status(text) {
  const line = document.getElementById("list-status");
  if (line) { line.textContent = text; }
  const root = editor();
  if (root) { root.classList.toggle("saving", queue.pending(scope).length > 0); }
}

// -- changes in ----------------------------------------------------------------------------

function commit(control) {
  const form = control && control.closest ? control.closest('form[data-edit="field"]') : null;
  const root = editor();
  if (!form || !root || !root.contains(form)) { return; }
  const at = where(form);
  if (conflicts[slot(at.target, at.field)]) { return; }  // a choice to make first
  const value = valueOf(form, false);
  const queued = lastOf(at.target, at.field);
  const from = queued ? queued.value : valueOf(form, true);
  if (same(value, from)) { return; }
  queue.enqueue(record({ op: at.op, section: at.section, target: at.target, field: at.field,
                         value: value, from: from, label: at.field }), 0);
  mark(form, "saving");
  status("Saving…");
}

function action(form) {
  const data = new FormData(form);
  const values = data.getAll("value");
  const op = data.get("op") || "";
  queue.enqueue(record({
    op: op, section: data.get("section") || "", target: data.get("item") || "",
    field: data.get("field") || "",
    value: op === "values" ? values : (values.length ? values[values.length - 1] : ""),
    then: data.get("then") || "", then_text: data.get("then_text") || "",
  }), 0);
  status("Saving…");
}

document.addEventListener("change", (event) => { if (!swapping && scope) { commit(event.target); } });
document.addEventListener("focusout", (event) => {
  const t = event.target;
  if (!swapping && scope && t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA") && t.type !== "checkbox") {
    commit(t);
  }
});
document.addEventListener("submit", (event) => {
  const form = event.target;
  const root = editor();
  if (!scope || !root || !root.contains(form) || !form.hasAttribute("data-edit")) { return; }
  event.preventDefault();
  if (form.closest(".conflict")) { return; }
  if (form.getAttribute("data-edit") === "field") { commit(controlsOf(form)[0]); return; }
  action(form);
});
document.addEventListener("click", (event) => {
  const button = event.target.closest ? event.target.closest("[data-keep]") : null;
  if (!button || !scope) { return; }
  const id = button.closest(".conflict").dataset.slot;
  const open = conflicts[id];
  if (!open) { return; }
  delete conflicts[id];
  store.dropConflict(scope, open.target, open.field);
  button.closest(".conflict").remove();
  const form = formFor(open.target, open.field);
  if (button.dataset.keep === "mine") {
    // mine again, now made from theirs: the player chose it
    queue.enqueue(record({ op: open.op, section: open.section, target: open.target,
                           field: open.field, value: open.mine, from: open.theirs }), 0);
    mark(form, "saving");
  } else if (form) {
    writeValue(form, open.theirs);
    mark(form, "saved");
  }
});

// -- answers -------------------------------------------------------------------------------

function showConflict(id) {
  const open = conflicts[id];
  const form = formFor(open.target, open.field);
  if (!form || form.nextElementSibling && form.nextElementSibling.dataset.slot === id) { return; }
  writeValue(form, open.mine);
  const box = document.createElement("div");
  box.className = "refusal conflict";
  box.setAttribute("role", "alert");
  box.dataset.slot = id;
  const text = document.createElement("p");
  text.className = "field-error";
  text.textContent = open.message;
  box.appendChild(text);
  [["theirs", "Keep theirs"], ["mine", "Keep mine"]].forEach(([keep, words]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = keep === "mine" ? "" : "secondary";
    b.dataset.keep = keep;
    b.textContent = words;
    box.appendChild(b);
  });
  form.after(box);
  mark(form, "failed", "changed elsewhere meanwhile");
}

function reapply() {
  queue.pending(scope).forEach((r) => {
    const form = r.target !== undefined ? formFor(r.target, r.field) : null;
    if (form && (r.op === "set" || r.op === "values" || r.op === "meta")) {
      writeValue(form, r.value);
      mark(form, r.failed ? "failed" : "saving", r.failed || "");
    }
  });
  Object.keys(conflicts).forEach(showConflict);
  status(queue.pending(scope).length ? "Saving…" : "");
}

function swap(html) {
  const root = editor();
  if (!root) { return; }
  const holder = document.createElement("template");
  holder.innerHTML = html;
  const fresh = holder.content.querySelector("#list-editor");
  if (!fresh) { return; }
  const active = document.activeElement;
  let kept = null;
  if (active && root.contains(active) && active.id) {
    kept = { id: active.id, value: active.value, checked: active.checked,
             dirty: active.type === "checkbox" ? active.checked !== active.defaultChecked
               : active.value !== active.defaultValue };
    try { kept.start = active.selectionStart; kept.end = active.selectionEnd; } catch (e) { /* number inputs */ }
  }
  swapping = true;
  root.replaceWith(fresh);
  swapping = false;
  reapply();
  if (kept) {
    const again = document.getElementById(kept.id);
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
  const alert = fresh.querySelector(".refusal");
  if (alert && !kept) { alert.scrollIntoView({ block: "center" }); }
}

queue.on("answered", (army, batch, answer) => {
  if (army !== scope) { return; }
  if (following) { following.answered(); }  // a drawing asked before this answer is older
  const results = (answer && answer.results) || [];
  let saved = false;
  results.forEach((result) => {
    const sent = batch.find((r) => r.key === result.key) || {};
    const form = formFor(sent.target, sent.field);
    if (result.status === "conflict") {
      conflicts[slot(sent.target, sent.field)] = { message: result.message, theirs: result.theirs,
        mine: sent.value, target: sent.target, field: sent.field, section: sent.section, op: sent.op };
      // kept on the device: a reload before the player chose still offers the choice
      store.putConflict(scope, sent.target, sent.field, result.theirs, sent.value);
    } else if (result.status === "applied" || result.status === "duplicate") {
      saved = true;
      if (form && !lastOf(sent.target, sent.field)) { mark(form, "saved"); }
    } else if (form) {
      mark(form, "failed", result.message || "refused");
    }
  });
  if (!queue.pending(scope).length && answer && answer.html) {
    swap(answer.html);
    const line = document.getElementById("list-status");
    if (line && saved && !line.textContent) { line.textContent = "Saved."; }
    results.forEach((result) => {
      const sent = batch.find((r) => r.key === result.key) || {};
      if (result.status === "applied" || result.status === "duplicate") {
        mark(formFor(sent.target, sent.field), "saved");
      }
    });
  } else {
    Object.keys(conflicts).forEach(showConflict);
    status(queue.pending(scope).length ? "Saving…" : "");
  }
});

queue.on("failed", (batch, why) => {
  const mine = batch.filter((r) => r.army === scope);
  if (!mine.length) { return; }
  mine.forEach((r) => { r.failed = why; mark(formFor(r.target, r.field), "failed", why); });
  status("Not saved yet: " + why + ".");
});

function labelOf(form) {
  const label = form.querySelector("label, legend");
  return label ? label.textContent.replace(/\(none ticked: any\)/, "").trim() : "";
}

function restoreConflicts(kept) {
  kept.forEach((open) => {
    const form = formFor(open.target, open.field);
    if (!form) { store.dropConflict(scope, open.target, open.field); return; }  // item gone
    const at = where(form);
    const theirs = Array.isArray(open.theirs) ? open.theirs.join(", ") : open.theirs;
    conflicts[slot(open.target, open.field)] = {
      message: labelOf(form) + ": changed elsewhere meanwhile (now “" + theirs + "”); yours was not saved. Choose which to keep.",
      theirs: open.theirs, mine: open.mine, target: open.target, field: open.field,
      section: at.section, op: at.op };
  });
}

function start() {
  const root = editor();
  if (!root || !root.dataset.list) { return; }
  scope = "list-" + root.dataset.list;
  // what the player typed before this script came (a slow link, a slow phone): sent too
  const early = Array.from(root.querySelectorAll('form[data-edit="field"]'))
    .filter((form) => !same(valueOf(form, false), valueOf(form, true)))
    .map((form) => [form, valueOf(form, false)]);
  // conflicts not chosen yet and changes left by an earlier page (a reload, offline) are
  // shown again, and the changes sent
  store.conflicts(scope).then(restoreConflicts).then(() => queue.load()).then(() => {
    following = followList({
      keep(form) {
        const at = where(form);
        return Boolean(lastOf(at.target, at.field) || conflicts[slot(at.target, at.field)]);
      },
      paused: () => swapping || queue.pending(scope).length > 0,
      busy(on) { swapping = on; },
      after: reapply,
    });
    reapply();
    early.forEach(([form, value]) => {
      if (!form.isConnected) { return; }
      writeValue(form, value);  // newer than anything an earlier page left
      const control = controlsOf(form)[0];
      if (control) { commit(control); }
    });
    if (navigator.onLine !== false) { queue.sendAll(); }
  });
}

window.addEventListener("online", () => { if (scope) { queue.sendAll(); } });

if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
