/* What the builder shows of its own changes not yet saved: their count in the pending
 * box, and a rename still unsent in the heading. */
import * as queue from "./queue.js";
import * as redraw from "./redraw.js";
import { stateOf } from "./fields.js";

export function showCount(army) {
  const box = document.getElementById("pending-changes");
  if (!box || army === null) { return; }
  const mine = queue.pending(army);
  if (!mine.length && redraw.noticeShowing()) { return; }
  box.hidden = mine.length === 0;
  if (!mine.length) { box.textContent = ""; return; }
  let text = mine.length === 1 ? "1 change not yet saved" : mine.length + " changes not yet saved";
  const failed = mine.some((r) => r.op !== "set" || (stateOf(r.target, r.field) || {}).state === "failed");
  if (failed && navigator.onLine === false) { text += " (offline: sent when the connection returns)"; }
  const actions = mine.filter((r) => r.op !== "set").map((r) => r.label);
  if (actions.length) { text += ": " + actions.join(", "); }
  box.textContent = text;
}

/* The heading names the army as the player named it, a rename still unsent included. */
export function showTitle(army) {
  const title = document.getElementById("army-title");
  const queued = army === null ? null : queue.lastSet(army, "army", "name");
  if (title && queued && typeof queued.value === "string" && queued.value.trim() && title.textContent !== queued.value) {
    title.textContent = queued.value;
  }
}
