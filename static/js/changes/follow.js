/* An open builder follows the army: while the page is visible it asks the army's version
 * (`data-version-url`, /armies/<id>/version.json) about once a second and, when another tab
 * or device saved a change, draws the builder again from the server exactly as after any
 * gap (redraw.js: morphed, open cards, focus and typed values kept, conflicts marked).
 *
 * Light on the server and the phone: the answer's ETag is sent back (`If-None-Match`), so
 * while nothing changed the answer is a 304 with no body; a hidden page (another tab, the
 * phone locked) asks nothing at all, and asks at once when shown again; offline it waits
 * for the connection. A page opened from the device's copy is drawn from the server as soon
 * as it answers again. The second's check skips while this page's own changes are on their
 * way (their answers bring the version) or a drawing is already coming; a page shown again
 * asks whatever is on its way. A short poll, not a
 * held stream: no request stays open on a web process for a slow phone. */
import * as queue from "./queue.js";
import * as redraw from "./redraw.js";
import { versionNow } from "./kept.js";

const PERIOD = 1000;    // ms: "another device's change shows within two seconds"
const STALLED = 10000;  // ms: an answer that never comes does not stop the following

let timer = null;
let asking = false;
let tag = null;        // the ETag of the last answer, and the version it named
let tagged = 0;

function builder() { return document.getElementById("builder"); }

function armyOf(el) { return el && el.dataset.army ? Number(el.dataset.army) : null; }

function schedule(delay) {
  clearTimeout(timer);
  timer = null;
  if (document.hidden || !builder()) { return; }  // shown again: see visibilitychange
  timer = setTimeout(tick, delay);
}

async function tick() {
  schedule(PERIOD);
  const here = builder();
  const url = here ? here.dataset.versionUrl : null;
  if (!url || asking || document.hidden || navigator.onLine === false || redraw.drawing()) { return; }
  const army = armyOf(here);
  if (army !== null && queue.pending(army).length) { return; }
  // a page opened from the device's copy is drawn from the server once it answers again,
  // whatever the version (a copy may hold editors older than its version); then it is
  // followed as any other
  const copy = document.documentElement.hasAttribute("data-offline-copy");
  const shown = versionNow() || 0;
  const headers = { Accept: "application/json" };
  if (tag && tagged === shown && !copy) { headers["If-None-Match"] = tag; }
  asking = true;
  let version = null;
  try {
    const response = await fetch(url, {
      cache: "no-store", credentials: "same-origin", headers: headers,
      signal: AbortSignal.timeout ? AbortSignal.timeout(STALLED) : undefined,
    });
    if (response.status === 304 || !response.ok) { return; }
    version = Number((await response.json()).version);
    tag = response.headers.get("ETag");
    tagged = version;
  } catch (e) {
    return;  // offline or a dropped answer: asked again in a second
  } finally {
    asking = false;
  }
  if (copy) { redraw.redraw(false); return; }
  // the page moved meanwhile (its own answer landed): the next tick asks again
  if (version > 0 && version !== shown && shown === (versionNow() || 0)) { redraw.redraw(true); }
}

// shown again: asked at once, even with this page's own changes on their way (one of
// them stuck on a slow link must not hide what changed elsewhere meanwhile)
document.addEventListener("visibilitychange", () => {
  if (document.hidden) { clearTimeout(timer); timer = null; return; }
  redraw.check();
  schedule(PERIOD);
});
window.addEventListener("online", () => schedule(0));
window.addEventListener("pageshow", () => schedule(PERIOD));

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => schedule(PERIOD));
} else {
  schedule(PERIOD);
}
