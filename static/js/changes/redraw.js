/* The builder drawn again from the server, keeping what the player is in the middle of: the
 * builder's subject of the one follower (follow.js), which asks the army's version
 * (`data-version-url`, /armies/<id>/version.json) about once a second.
 *
 * What a gap does (an answer that does not follow the version on screen, one that could
 * not be applied, a reconnect, a reload, Back, a tab shown again, another tab's or
 * device's change): the page is fetched once and morphed into place (morph.js: an open
 * card stays open, a focused control keeps focus, caret and text). A page fetched before
 * one of this page's changes was answered would put back the value from before it: it is
 * dropped and fetched again. The poll skips while this page's own changes are on their way
 * (their answers bring the version) or a drawing is already coming. */
import * as queue from "./queue.js";
import { drawnOnline, follow } from "./follow.js";
import { busy, morphBuilder } from "./morph.js";

let noticeTimer = null;
let noticeUntil = 0;
const hooks = { after() {}, own: () => 0 };

export function on(name, hook) { hooks[name] = hook; }

export function noticeShowing() { return Date.now() < noticeUntil; }

function builder() { return document.getElementById("builder"); }

function versionNow() {
  const input = document.getElementById("army-version");
  return input ? Number(input.value) : 0;
}

function drawn(fresh) {
  const version = fresh.querySelector("#army-version");
  return version ? Number(version.getAttribute("value")) : 0;
}

function ownPending() {
  const here = builder();
  return Boolean(here && here.dataset.army && queue.pending(Number(here.dataset.army)).length);
}

const follower = follow({
  id: "builder",
  copies: true,
  shown: versionNow,
  drawn: drawn,
  busy: busy,
  paused: () => ownPending() || follower.drawing(),
  moved: (version, copy) => (copy ? redraw(false) : follower.draw(true, version)),
  morph(fresh, notice) {
    // said to come from another tab or device, unless this page's own answers explain it
    const elsewhere = notice === true && drawn(fresh) > hooks.own();
    return morphBuilder(fresh).then(() => {
      drawnOnline();
      if (elsewhere) { showNotice("Updated from another tab or device."); }
      hooks.after();
    });
  },
});

/* Told of every answer of this page's own: a drawing asked before it is stale. */
export function answeredOnce() { follower.answered(); }

/* Whether a drawing from the server is on its way. */
export function drawing() { return follower.drawing(); }

/* Asks the server for the army's version; redraws when it moved on. */
export function check() { return follower.check(); }

/* Fetches the builder once and morphs it in; `notice`: say it came from another tab or
 * device. Asked again while one is under way: one more follows it. */
export function redraw(notice) { return follower.draw(notice, 0); }

function showNotice(text) {
  const box = document.getElementById("pending-changes");
  if (!box) { return; }
  box.hidden = false;
  box.textContent = text;
  clearTimeout(noticeTimer);
  noticeUntil = Date.now() + 6000;
  noticeTimer = setTimeout(() => { noticeUntil = 0; hooks.after(); }, 6100);
}
