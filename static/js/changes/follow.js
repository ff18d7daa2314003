/* The one way a page follows what it shows (a "subject": the builder's army, a list being
 * edited, a game): while the page is visible it asks the subject's version about once a
 * second and, when the subject moved on, fetches the page once more and morphs the
 * subject's element into place (idiomorph, vendored), so that only what differs changes.
 * The builder (redraw.js), the list editor (list-follow.js) and the game (game-follow.js)
 * each give it their element, their URLs and their hooks; what each one draws itself
 * stays in its own module.
 *
 * Light on the server and the phone: the version's ETag is sent back (`If-None-Match`), so
 * while nothing changed the answer is a 304 with no body; a hidden page (another tab, the
 * phone locked) asks nothing at all, and asks at once when shown again; offline it waits
 * for the connection. A short poll, not a held stream: no request stays open on a web
 * process for a slow phone.
 *
 * Nothing the player is in the middle of is lost: the focused control keeps its value,
 * caret and text, an open <details> stays open, the page's own notes stay (hook `own`),
 * and each subject keeps what else is its player's (hooks `node`, `attribute`, `removed`,
 * `focused`). A drawing never goes back: one older than what the page shows, or asked
 * before one of the page's own answers landed (`answered`), is dropped and asked again;
 * two drawings answered out of order on a slow link cannot put the older over the newer. */
import { Idiomorph } from "../vendor/idiomorph.js";

const PERIOD = 1000;    // ms: "another device's change shows within two seconds"
const STALLED = 10000;  // ms: an answer that never comes does not stop the following

function element(node) { return node && node.nodeType === 1; }

/* Whether the player changed a control since the server drew it (its value is not the
 * drawn one). */
export function typed(el) {
  if (el.tagName === "TEXTAREA") { return el.value !== el.defaultValue; }
  if (el.tagName === "SELECT") {
    return Array.prototype.some.call(el.options, (o) => o.selected !== o.defaultSelected);
  }
  if (el.tagName !== "INPUT") { return false; }
  if (el.type === "checkbox" || el.type === "radio") { return el.checked !== el.defaultChecked; }
  return el.type !== "hidden" && el.value !== el.defaultValue;
}

/* The page is the server's drawing now, no longer the copy kept on this device: the
 * copy's note goes (static/js/app.js shows the connection's notice again). A subject that
 * `copies` calls it once its drawing from the server is in. */
export function drawnOnline() {
  const root = document.documentElement;
  if (!root.hasAttribute("data-offline-copy")) { return; }
  root.removeAttribute("data-offline-copy");
  document.dispatchEvent(new CustomEvent("muster:drawn-online"));
}

/* Idiomorph's options for a subject: the rules every page keeps, then the subject's. */
export function morphOptions(hooks) {
  const own = hooks.own || [];
  return {
    // not idiomorph's ignoreActiveValue: it leaves every child of a focused element as it
    // was (a card's <summary> the player just tapped would keep its old points)
    morphStyle: "outerHTML",
    restoreFocus: true,
    callbacks: {
      beforeNodeMorphed(old, fresh) {
        if (!element(old)) { return true; }
        // the control the player is in keeps its value, caret and text being typed (a
        // subject's hook `focused` may let one follow the server, e.g. one not changed)
        if (old === document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(old.tagName)
            && (!hooks.focused || hooks.focused(old))) { return false; }
        if (old.id && own.indexOf(old.id) !== -1) { return false; }
        return hooks.node ? hooks.node(old, fresh) : true;
      },
      beforeAttributeUpdated(name, el) {
        // open or closed is the player's choice (a <details> the server draws open is a new one)
        if (name === "open" && el.tagName === "DETAILS") { return false; }
        return hooks.attribute ? hooks.attribute(name, el) : true;
      },
      beforeNodeRemoved(node) { return hooks.removed ? hooks.removed(node) : true; },
    },
  };
}

/* Follows one subject. `s`: id (its element's, which names the version's URL in
 * `data-version-url`), shown() (the version on screen) and drawn(fresh) (a fetched
 * drawing's), morph(fresh, reason, url) (a promise), moved(version, copy) (the poll saw
 * another version, or the page is the device's copy), and optionally page(reason) (the URL
 * to draw from, or null: nothing to draw; else the page's own), copies, paused() (the poll
 * asks nothing now), same() (the poll saw the version shown), busy(more) and headers. A
 * fetched page that is the device's copy (the service worker's answer when the network
 * failed) is never drawn over the page: asked again once the server answers. */
export function follow(s) {
  let generation = 0;  // bumped by every answer of the page's own: a drawing asked before it is stale
  let latest = null;   // the drawing asked last: {promise, version (0: not known), since}
  let wanted = false;  // one more drawing once it is done
  let timer = null;
  let asking = false;
  let tag = null;      // the ETag of the last answer, and the version it named
  let tagged = 0;

  const here = () => document.getElementById(s.id);
  const pageOf = (reason) => (s.page ? s.page(reason) : window.location.pathname + window.location.search);
  const stalled = (run) => Date.now() - run.since >= STALLED;

  /* Whether a drawing from the server is on its way (one that stalled no longer counts). */
  function drawing() { return latest !== null && !stalled(latest); }

  /* Fetches the page once and morphs the subject in. `version`: the one it is asked for
   * (0: not known). While one is on its way, another is asked only for a newer version
   * than it brings (or once it stalled); else one more follows it, or none is needed. */
  function draw(reason, version) {
    const url = here() ? pageOf(reason) : null;
    if (!url || navigator.onLine === false) { return Promise.resolve(); }
    if (latest && !stalled(latest) && (!version || !latest.version || version <= latest.version)) {
      if (!version || !latest.version) { wanted = true; }
      return latest.promise;
    }
    const run = { version: version || 0, since: Date.now() };
    const before = generation;
    latest = run;
    if (s.busy) { s.busy(true); }
    run.promise = fetch(url, { credentials: "same-origin", cache: "no-store", headers: s.headers || {} })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        const page = html ? new DOMParser().parseFromString(html, "text/html") : null;
        const fresh = page ? page.getElementById(s.id) : null;
        if (!fresh || !here() || page.documentElement.hasAttribute("data-offline-copy")) { return null; }
        if (generation !== before || s.drawn(fresh) < s.shown()) {
          if (latest === run) { wanted = true; }  // else the newer one asked since brings it
          return null;
        }
        return s.morph(document.importNode(fresh, true), reason, url);
      })
      .catch(() => {})
      .then(() => {
        let next = null;
        if (latest === run) {
          latest = null;
          if (wanted) { wanted = false; next = draw(true, 0); }
        }
        if (s.busy) { s.busy(false); }
        return next;
      });
    return run.promise;
  }

  function schedule(delay) {
    clearTimeout(timer);
    timer = null;
    if (document.hidden || !here()) { return; }  // shown again: see visibilitychange
    timer = setTimeout(tick, delay);
  }

  /* Asks the subject's version once; `eager`: even while paused (a page shown again asks
   * whatever is on its way: one change stuck on a slow link must not hide the others). */
  async function ask(eager) {
    const url = here() ? here().dataset.versionUrl : null;
    if (!url || asking || document.hidden || navigator.onLine === false) { return null; }
    if (!eager && s.paused && s.paused()) { return null; }
    // a page opened from the device's copy (`copies`: the subject's page is kept so) is
    // drawn from the server once it answers again, whatever the version; then it is
    // followed as any other
    const copy = Boolean(s.copies) && document.documentElement.hasAttribute("data-offline-copy");
    const shown = s.shown();
    const headers = { Accept: "application/json" };
    if (tag && tagged === shown && !copy) { headers["If-None-Match"] = tag; }
    asking = true;
    let version = null;
    try {
      const response = await fetch(url, {
        cache: "no-store", credentials: "same-origin", headers: headers,
        signal: AbortSignal.timeout ? AbortSignal.timeout(STALLED) : undefined,
      });
      if (response.status === 304 || !response.ok) { return null; }
      version = Number((await response.json()).version);
      tag = response.headers.get("ETag");
      tagged = version;
    } catch (e) {
      return null;  // offline or a dropped answer: asked again in a second
    } finally {
      asking = false;
    }
    if (!copy && version === shown) { if (s.same) { s.same(); } return null; }
    // the page moved meanwhile (its own answer landed): the next tick asks again
    if (copy || (version > 0 && shown === s.shown())) { return s.moved(version, copy); }
    return null;
  }

  function tick() {
    schedule(PERIOD);
    ask(false);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { clearTimeout(timer); timer = null; return; }
    ask(true);
    schedule(PERIOD);
  });
  window.addEventListener("online", () => schedule(0));
  window.addEventListener("pageshow", () => schedule(PERIOD));
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => schedule(PERIOD));
  } else {
    schedule(PERIOD);
  }

  return {
    draw: draw,
    drawing: drawing,
    check: () => ask(true),
    answered() { generation++; },
  };
}
