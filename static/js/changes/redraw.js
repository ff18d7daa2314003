/* The builder drawn again from the server, keeping what the player is in the middle of.
 *
 * What a gap does (an answer that does not follow the version on screen, one that could
 * not be applied, a reconnect, a reload, Back, a tab shown again, another tab's or
 * device's change): the page is fetched once and morphed into place (morph.js: an open
 * card stays open, a focused control keeps focus, caret and text). A page fetched before
 * one of this page's changes was answered would put back the value from before it: it is
 * dropped and fetched again. */
import { busy, morphBuilder } from "./morph.js";

let generation = 0;     // bumped by every answer: a redraw fetched before it is stale
let running = null;
let wanted = false;
let noticeTimer = null;
let noticeUntil = 0;
const hooks = { after() {}, own: () => 0 };

export function on(name, hook) { hooks[name] = hook; }

export function answeredOnce() { generation++; }

export function noticeShowing() { return Date.now() < noticeUntil; }

/* Whether a drawing from the server is on its way. */
export function drawing() { return running !== null; }

function versionNow() {
  const input = document.getElementById("army-version");
  return input ? Number(input.value) : 0;
}

/* Asks the server for the army's version; redraws when it moved on. */
export function check() {
  const builder = document.getElementById("builder");
  if (!builder || !builder.dataset.versionUrl || navigator.onLine === false) { return Promise.resolve(); }
  return fetch(builder.dataset.versionUrl, { credentials: "same-origin", cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      if (data && Number(data.version) !== versionNow()) { return redraw(true); }
      return null;
    })
    .catch(() => {});
}

/* Fetches the builder once and morphs it in; `notice`: say it came from another tab or
 * device (unless this page's own answers explain the version it shows). Asked again while
 * one is under way: one more follows it. */
export function redraw(notice) {
  if (!document.getElementById("builder") || navigator.onLine === false) { return Promise.resolve(); }
  if (running) { wanted = wanted || notice || true; return running; }
  const before = generation;
  busy(true);
  running = fetch(window.location.pathname + window.location.search, { credentials: "same-origin", cache: "no-store" })
    .then((r) => (r.ok ? r.text() : null))
    .then((html) => {
      const drawnPage = html ? new DOMParser().parseFromString(html, "text/html") : null;
      const fresh = drawnPage ? drawnPage.getElementById("builder") : null;
      if (!fresh || !document.getElementById("builder")) { return null; }
      // the device's copy (the service worker's answer when the network failed) is never
      // drawn over the page: asked again once the server answers (follow.js)
      if (drawnPage.documentElement.hasAttribute("data-offline-copy")) { return null; }
      if (generation !== before || drawn(fresh) < versionNow()) {
        wanted = wanted || notice || true;
        return null;
      }
      const elsewhere = notice === true && drawn(fresh) > hooks.own();
      return morphBuilder(document.importNode(fresh, true)).then(() => {
        online();
        if (elsewhere) { showNotice("Updated from another tab or device."); }
        hooks.after();
      });
    })
    .catch(() => {})
    .then(() => {
      running = null;
      let next = null;
      if (wanted) {
        const again = wanted;
        wanted = false;
        next = redraw(again === true);
      }
      busy(false);
      return next;
    });
  return running;
}

/* The page is the server's drawing now, no longer the copy kept on this device: the
 * copy's note goes (static/js/app.js shows the connection's notice again). */
function online() {
  const root = document.documentElement;
  if (!root.hasAttribute("data-offline-copy")) { return; }
  root.removeAttribute("data-offline-copy");
  document.dispatchEvent(new CustomEvent("muster:drawn-online"));
}

function drawn(fresh) {
  const version = fresh.querySelector("#army-version");
  return version ? Number(version.getAttribute("value")) : 0;
}

function showNotice(text) {
  const box = document.getElementById("pending-changes");
  if (!box) { return; }
  box.hidden = false;
  box.textContent = text;
  clearTimeout(noticeTimer);
  noticeUntil = Date.now() + 6000;
  noticeTimer = setTimeout(() => { noticeUntil = 0; hooks.after(); }, 6100);
}
