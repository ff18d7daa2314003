/* A game's page follows the other phone: the game's subject of the one follower
 * (changes/follow.js), which asks the game's version every second and, when the game moved
 * on, draws the page's content again from the server, morphed so that only what differs
 * changes: an open "Remove…" stays open, a field with text typed keeps it, a chosen unit
 * stays chosen. A player in the middle of a form (typing in a field, or a combat worked out
 * and not yet applied) is not disturbed: a notice offers to show the game as it stands
 * instead. Without JavaScript nothing of this runs and the page is read anew by reloading it. */
import { follow as follower, morphOptions, typed } from "./changes/follow.js";
import { Idiomorph } from "./vendor/idiomorph.js";

const OWN = ["game-pending", "game-refused", "combat-offline"];  // game-ops.js writes these

function game() { return document.getElementById("game"); }

function shown() { return Number(game().dataset.version); }

function inProgress() {
  const here = game();
  if (here.querySelector("[data-in-progress]")) { return true; }  // worked out, not applied
  const el = document.activeElement;
  return Boolean(el && here.contains(el) && /^(INPUT|TEXTAREA)$/.test(el.tagName)
    && el.type !== "checkbox" && el.type !== "radio" && el.value.trim() !== "");
}

// what the player typed or chose stays theirs
const MORPH = morphOptions({ own: OWN, node: (old) => !typed(old) });

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
    game().before(notice);
  }
  notice.hidden = false;
}

function hideNotice() { if (notice) { notice.hidden = true; } }

/* The page as this phone reads it (its chosen pair in the query), unless this is the answer
 * to a form (worked out, refused): then the game's page itself, when asked. */
function page(asked) {
  const url = game().dataset.pageUrl;
  if (location.pathname === url) { return url + location.search; }
  return asked ? url : null;
}

const following = game() && game().dataset.versionUrl ? follower({
  id: "game",
  headers: { Accept: "text/html" },
  page: page,
  shown: shown,
  drawn: (fresh) => Number(fresh.dataset.version),
  same: hideNotice,
  moved(version) {
    if (inProgress()) { showNotice(); return null; }
    return following.draw(false, version);
  },
  morph(fresh) {
    Idiomorph.morph(game(), fresh, MORPH);
    const url = game().dataset.pageUrl;
    if (location.pathname !== url) { history.replaceState(null, "", url + location.hash); }
    hideNotice();
    document.dispatchEvent(new CustomEvent("muster:game-drawn"));
    return null;
  },
}) : null;

/* Draws the game again from the server (`asked`: by the notice's button, or by game-ops.js
 * once its actions were answered, `version` the one the answer named); "muster:game-drawn"
 * follows, for game-ops.js to lay what this phone has not sent yet over it. */
export function follow(asked, version) {
  return following ? following.draw(asked, version || 0) : Promise.resolve();
}
