/* The page and the copies the device kept of it: which version the page shows, what this
 * device saw saved since (so a page drawn from an older kept copy changes fields from what
 * was saved, never from the older value), and card editors drawn from an older army than
 * the page (asked for again). */
import * as queue from "./queue.js";
import { readValue, sameValue, wrapFor, writeValue } from "./fields.js";

/* The army version the page shows (its hidden #army-version), or undefined. */
export function versionNow() {
  const input = document.getElementById("army-version");
  return input && Number(input.value) > 0 ? Number(input.value) : undefined;
}

/* The newest version of the army this device saw drawn online (kept across reloads and
 * tabs): a page drawn from the device's copy that is older says so, since the changes
 * saved after it (a unit added, a force rolled) show only once the connection returns. */
const NEWEST = "muster:newest:";

export function sawSaved(army, version) {
  if (!(version > 0)) { return; }
  try {
    if (Number(window.localStorage.getItem(NEWEST + army) || 0) < version) {
      window.localStorage.setItem(NEWEST + army, String(version));
    }
  } catch (e) { /* no storage: the copy's note says only when it was kept */ }
}

function newestSaved(army) {
  try { return Number(window.localStorage.getItem(NEWEST + army) || 0); } catch (e) { return 0; }
}

/* On a page drawn from the device's copy: whether changes saved since are missing from it,
 * said beside the copy's note until the page shows them. */
export function showCopyAge(army) {
  const note = document.getElementById("offline-copy");
  if (!note || army === null || !document.documentElement.hasAttribute("data-offline-copy")) { return; }
  const newest = newestSaved(army);
  let older = document.getElementById("copy-older");
  if (!(newest > (versionNow() || 0))) {
    if (older) { older.remove(); }
    return;
  }
  if (!older) {
    older = document.createElement("strong");
    older.id = "copy-older";
    note.append(" ", older);
  }
  older.textContent = "It is older than what this device saw saved: the changes saved since "
    + "show when the connection returns.";
}

/* What this device saw saved, field by field, with the version it was saved at (kept
 * across reloads): a page drawn from an older copy (a reload offline before the kept copy
 * caught up) changes those fields from what was saved, never from the older value, so
 * the player's next change is no conflict with their own earlier one. */
const SEEN = "muster:seen:";

export function remember(army, sent, value, version) {
  if (!(version > 0)) { return; }
  try {
    const all = JSON.parse(window.localStorage.getItem(SEEN + army) || "{}");
    all[sent.target + " " + sent.field] = { value: value, version: version };
    const keys = Object.keys(all);
    keys.sort((a, b) => all[a].version - all[b].version).slice(0, Math.max(0, keys.length - 200))
      .forEach((k) => delete all[k]);
    window.localStorage.setItem(SEEN + army, JSON.stringify(all));
  } catch (e) { /* no storage: a kept copy is as old as it is */ }
}

/* The value a field's next change is made from: what this device saw saved there after
 * the version the page shows (the field drawn from before that change landed: an editor
 * fetched again while its answer was on the way), else `drawn`, the value it was drawn
 * with. */
export function savedSince(army, target, field, drawn) {
  try {
    const entry = JSON.parse(window.localStorage.getItem(SEEN + army) || "{}")[target + " " + field];
    if (entry && entry.version > (versionNow() || 0)) { return entry.value; }
  } catch (e) { /* no storage: as drawn */ }
  return drawn;
}

/* Fields the page shows older than this device saw them saved take the saved value (and
 * change from it), unless the player's own value is kept there (`keep`). */
export function catchUp(army, keep) {
  const now = versionNow() || 0;
  let all = {};
  try { all = JSON.parse(window.localStorage.getItem(SEEN + army) || "{}"); } catch (e) { return; }
  Object.keys(all).forEach((key) => {
    const entry = all[key];
    if (!entry || !(entry.version > now)) { return; }
    const space = key.indexOf(" ");
    const target = key.slice(0, space);
    const field = key.slice(space + 1);
    const wrap = wrapFor(target, field);
    if (!wrap || queue.lastSet(army, target, field) || keep(wrap)) { return; }
    wrap.dataset.from = JSON.stringify(entry.value);
    if (!wrap.contains(document.activeElement) && !sameValue(readValue(wrap), entry.value)) { writeValue(wrap, entry.value); }
  });
}

/* A card's editor drawn from an older army than the page shows (asked for while a change
 * sent as the last page left was still being saved: a reload mid-send) is asked for again,
 * so the card shows what the server holds. Its form names the version it was drawn from. */
const refetched = new Set();
document.addEventListener("htmx:load", (event) => {
  const editor = event.target;
  if (!editor || !editor.classList || !editor.classList.contains("card-editor") || !window.htmx) { return; }
  const drawn = editor.querySelector("input[name=version]");
  const card = editor.closest("li[data-editor]");
  const now = versionNow();
  if (!drawn || !card || !now || Number(drawn.value) >= now || navigator.onLine === false) { return; }
  const once = card.id + "@" + now;  // a kept copy offline is as old: asked once, not again
  if (refetched.has(once)) { return; }
  refetched.add(once);
  window.htmx.ajax("GET", card.dataset.editor, { target: editor, swap: "outerHTML" });
});
