/* A game's page follows the other phone: while the page is visible it asks the game's
 * version every second and, when the game moved on, draws the page's content again from
 * the server, morphed (idiomorph, vendored) so that only what differs changes: an open
 * "Remove…" stays open, a field with text typed keeps it, a chosen unit stays chosen.
 * A player in the middle of a form (typing in a field, or a combat worked out and not yet
 * applied) is not disturbed: a notice offers to show the game as it stands instead.
 * Without JavaScript nothing of this runs and the page is read anew by reloading it. */
import { Idiomorph } from "./vendor/idiomorph.js";

const PERIOD = 1000;  // ms: "the other phone follows within a second"
const root = document.getElementById("game");
const OWN = ["game-pending", "game-refused", "combat-offline"];  // game-ops.js writes these

function shown() { return Number(document.getElementById("game").dataset.version); }

function typed(el) {
  if (el.tagName === "TEXTAREA") { return el.value !== el.defaultValue; }
  if (el.tagName === "SELECT") {
    return Array.prototype.some.call(el.options, (o) => o.selected !== o.defaultSelected);
  }
  if (el.tagName !== "INPUT") { return false; }
  if (el.type === "checkbox" || el.type === "radio") { return el.checked !== el.defaultChecked; }
  return el.type !== "hidden" && el.value !== el.defaultValue;
}

function inProgress() {
  const here = document.getElementById("game");
  if (here.querySelector("[data-in-progress]")) { return true; }  // worked out, not applied
  const el = document.activeElement;
  return Boolean(el && here.contains(el) && /^(INPUT|TEXTAREA)$/.test(el.tagName)
    && el.type !== "checkbox" && el.type !== "radio" && el.value.trim() !== "");
}

const MORPH = {
  morphStyle: "outerHTML",
  restoreFocus: true,
  callbacks: {
    beforeNodeMorphed(old) {
      if (!old || old.nodeType !== 1) { return true; }
      if (old.id && OWN.indexOf(old.id) !== -1) { return false; }
      // the control the player is in, and what they typed or chose, stay theirs
      if (old === document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(old.tagName)) { return false; }
      return !typed(old);
    },
    // open or closed is the player's choice
    beforeAttributeUpdated(name, el) { return !(name === "open" && el.tagName === "DETAILS"); },
  },
};

let notice = null;

function showNotice() {
  if (!notice) {
    notice = document.createElement("p");
    notice.id = "game-moved";
    notice.className = "notice";
    notice.setAttribute("role", "status");
    notice.append("The game moved on: ");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Show it";
    button.addEventListener("click", () => { follow(true); });
    notice.append(button);
    document.getElementById("game").before(notice);
  }
  notice.hidden = false;
}

function hideNotice() { if (notice) { notice.hidden = true; } }

/* Draws the game again from the server (`asked`: by the notice's button, or by game-ops.js
 * once its actions were answered); "muster:game-drawn" follows, for game-ops.js to lay
 * what this phone has not sent yet over it. */
export async function follow(asked) {
  const here = document.getElementById("game");
  const page = here.dataset.pageUrl;
  // the page as this phone reads it (its chosen pair in the query), unless this is the
  // answer to a form (worked out, refused): then the game's page itself, when asked
  const onPage = location.pathname === page;
  if (!onPage && !asked) { return; }
  const response = await fetch(onPage ? page + location.search : page, {
    cache: "no-store", credentials: "same-origin", headers: { Accept: "text/html" },
  });
  if (!response.ok) { return; }
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html")
    .getElementById("game");
  if (!fresh) { return; }
  // two drawings asked close together (after this phone's own action, and by the poll)
  // can answer out of order on a slow link: the game never goes back, so an older one is
  // not drawn over a newer one (a tap would then be made from a phase the game has left)
  if (Number(fresh.dataset.version) < shown()) { return; }
  Idiomorph.morph(here, fresh, MORPH);
  if (!onPage) { history.replaceState(null, "", page + location.hash); }
  hideNotice();
  document.dispatchEvent(new CustomEvent("muster:game-drawn"));
}

let asking = false;
// the newest version a drawing the poll asked for is on its way to show (0: none); the
// poll is not held by it: a drawing that stalls is passed by one asked when the game moves
// on again, and one asked already is not asked again every second on a slow link (only
// once it has been on its way longer than STALLED)
let coming = 0;
let comingSince = 0;
const STALLED = 10000;  // ms

async function tick() {
  if (document.hidden || asking || navigator.onLine === false) { return; }  // offline: asked when back
  asking = true;
  let version;
  try {
    const response = await fetch(document.getElementById("game").dataset.versionUrl, {
      cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" },
      signal: AbortSignal.timeout(STALLED),  // a stalled answer never stops the poll
    });
    if (!response.ok) { return; }
    ({ version } = await response.json());
  } catch (error) {
    return;  // offline or a dropped answer: asked again in a second
  } finally {
    asking = false;
  }
  if (version === shown()) { coming = 0; hideNotice(); return; }
  if (version <= coming && Date.now() - comingSince < STALLED) { return; }
  if (inProgress()) { showNotice(); return; }
  coming = version;
  comingSince = Date.now();
  follow(false).catch(() => {}).finally(() => { if (coming === version) { coming = 0; } });
}

if (root && root.dataset.versionUrl) {
  setInterval(tick, PERIOD);
  document.addEventListener("visibilitychange", tick);
  window.addEventListener("online", tick);
}
