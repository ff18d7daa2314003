/* Open conflicts kept across reloads: a field changed elsewhere while this device's value
 * waited is offered again after a reload (the player's value with the choice), until the
 * player chooses or the saved value is the player's. Kept in the device's change store. */
import * as store from "./store.js";
import * as queue from "./queue.js";
import { readValue, sameValue, showState, stateOf, wrapFor, writeValue } from "./fields.js";

let kept = [];

export function load(army) {
  if (army === null) { kept = []; return Promise.resolve(); }
  return store.conflicts(army).then((found) => { kept = found; });
}

export function remember(army, target, field, theirs, mine) {
  return store.putConflict(army, target, field, theirs, mine);
}

export function forget(army, target, field) {
  kept = kept.filter((k) => !(k.army === army && k.target === target && k.field === field));
  return store.dropConflict(army, target, field);
}

/* Each kept conflict the page does not show yet is shown on its field (a card's editor not
 * loaded is asked for; this runs again once it is). */
export function restore(army, loadEditor) {
  kept.forEach((c) => {
    if (c.army !== army || stateOf(c.target, c.field) || queue.lastSet(army, c.target, c.field)) { return; }
    const wrap = wrapFor(c.target, c.field);
    if (!wrap) { loadEditor(c.target); return; }
    const theirs = readValue(wrap);  // the page as drawn now is the saved army
    if (sameValue(theirs, c.mine)) { forget(army, c.target, c.field); return; }
    wrap.dataset.from = JSON.stringify(theirs);
    writeValue(wrap, c.mine);
    showState(c.target, c.field, { state: "conflict", reason: "changed elsewhere, choose a value",
                                   theirs: theirs, mine: c.mine });
  });
}
