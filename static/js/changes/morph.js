/* The builder morphed into what the server drew (idiomorph, vendored): only what differs
 * is changed, so the player's open cards stay open, the focused control keeps its focus,
 * caret and the text being typed, and the scroll stays put. The server's drawing is the
 * truth: a card it did not draw (one drawn by this page ahead of the server) goes, and the
 * page lays its unsent operations back on top afterwards ("muster:redrawn").
 *
 * What stays the page's own: the bar of waiting changes and other notes the page writes,
 * a field with a queued change, a refused value or a conflict's choice (hook "keep"), a
 * field's state label, and a card's editor already loaded where the server draws only the
 * link to it; that editor is fetched again (and morphed too) when the card's content key
 * moved, so its stat line and menus follow the unit. */
import { Idiomorph } from "../vendor/idiomorph.js";
import { morphOptions } from "./follow.js";

const OWN = ["pending-changes", "unsaved", "request-problem", "engine-status"];  // the page's own notes
const hooks = { keep: () => false, going: () => false };

export function on(name, hook) { hooks[name] = hook; }

function element(node) { return node && node.nodeType === 1; }

/* The builder's rules over the ones every followed page keeps (follow.js). */
function options(stale, version) {
  return morphOptions({
    own: OWN,
    node(old, fresh) {
      if (old.dataset.field && hooks.keep(old)) { return false; }
      if (old.tagName === "LI" && old.dataset.editor && element(fresh)
          && old.querySelector(".card-editor:not(.pending-editor)")
          && (old.getAttribute("data-editor-key") !== fresh.getAttribute("data-editor-key")
              || drawnFrom(old) !== version)) {
        // a one-field answer moves neither the card's key nor its editor's version: an
        // editor drawn from another version than the builder coming in is fetched again
        stale.add(old.id);
      }
      // (a card drawn before its answer came holds a placeholder: the server's replaces it,
      // and its editor is fetched as it shows, the card being open)
      if (old.classList.contains("card-editor") && !old.classList.contains("pending-editor")
          && !old.classList.contains("placeholder-editor")
          && element(fresh) && fresh.classList.contains("pending-editor")) {
        return false;  // loaded: kept (fetched again below when its card moved on)
      }
      return true;
    },
    attribute(name, el) {
      // what the page shows at a field (its state) is painted again afterwards
      return !(el.dataset && el.dataset.field && (name === "data-state" || name === "class"));
    },
    removed(node) {
      // what the page paints itself: a field's state, a card's conflict mark
      return !(element(node) && (node.classList.contains("field-state") || node.classList.contains("conflict-mark")));
    },
  });
}

/* The army version a card's loaded editor was drawn from (its form says). */
function drawnFrom(card) {
  const input = card.querySelector(".card-editor:not(.pending-editor) form input[name=version]");
  return input ? Number(input.getAttribute("value")) : 0;
}

function versionOf(root) {
  const input = root.querySelector ? root.querySelector("#army-version") : null;
  return input ? Number(input.getAttribute("value") || input.value) : 0;
}

/* While the page fetches or morphs the server's drawing, <html> says so (data-drawing):
 * what is shown is about to change. */
let drawing = 0;
export function busy(more) {
  drawing = Math.max(0, drawing + (more ? 1 : -1));
  document.documentElement.toggleAttribute("data-drawing", drawing > 0);
}

/* One part of the builder an answer sends out of band (the picker), morphed into `old`
 * rather than put in its place: the elements stay, so a tile pressed as the answer lands
 * still gets its release, and the tap is not lost. */
export function morphPart(old, fresh) {
  fresh.removeAttribute("hx-swap-oob");
  Idiomorph.morph(old, fresh, { morphStyle: "outerHTML", restoreFocus: true });
  const now = document.getElementById(old.id);
  if (window.htmx && now) { window.htmx.process(now); }
}

/* `fresh`: the server's #builder element (parsed from a page or an answer). Resolves once
 * the stale editors of open cards were fetched and morphed too. */
export function morphBuilder(fresh) {
  const old = document.getElementById("builder");
  if (!old || !fresh) { return Promise.resolve(false); }
  fresh.removeAttribute("hx-swap-oob");
  const version = versionOf(fresh);
  keepSaid(old, fresh, version);
  const stale = new Set();
  busy(true);
  try {
    Idiomorph.morph(old, fresh, options(stale, version));
  } catch (e) {
    busy(false);
    throw e;
  }
  const now = document.getElementById("builder");
  // the version input is hidden: its value property follows the attribute only while untouched
  const input = document.getElementById("army-version");
  if (input && version) { input.value = String(version); }
  if (window.htmx && now) { window.htmx.process(now); }
  // the cards drawn ahead of the server (which the morph took out) go back at once, not
  // after the stale editors below come: until then the player would see them gone
  document.dispatchEvent(new CustomEvent("muster:morphed"));
  return Promise.all(Array.from(stale).map((id) => refetchEditor(id))).then(() => {
    redrawn(version);
    busy(false);
    return true;
  });
}

/* What an answer said of the version on screen ("Undone: …") stays when a plain drawing of
 * that same version lands after it (the page's follower may have asked for one while the
 * answer was on its way): a newer version than the one it spoke of takes it away. */
function keepSaid(old, fresh, version) {
  const said = old.querySelector(".notice.ok-notice");
  if (!said || fresh.querySelector(".notice.ok-notice") || version !== versionShown()) { return; }
  const anchor = fresh.querySelector("#toast");
  const copy = said.cloneNode(true);
  if (anchor && anchor.parentNode) { anchor.parentNode.insertBefore(copy, anchor); } else { fresh.prepend(copy); }
}

/* Parses a page's or an answer's html and morphs its #builder in. */
export function morphHtml(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  const fresh = template.content.querySelector("#builder");
  return morphBuilder(fresh ? document.importNode(fresh, true) : null);
}

/* The version the page shows now (an answer applied since a fetch was sent moves it). */
function versionShown() {
  const input = document.getElementById("army-version");
  return input ? Number(input.value) : 0;
}

function refetchEditor(cardId, tries = 3) {
  const card = document.getElementById(cardId);
  const editor = card ? card.querySelector(".card-editor:not(.pending-editor)") : null;
  if (!editor || !card.dataset.editor || navigator.onLine === false) { return Promise.resolve(); }
  // a unit this page is deleting (its delete queued or on its way) would answer 404 as the
  // delete lands: its card goes with the next drawing, its editor is not asked for
  if (hooks.going(cardId)) { return Promise.resolve(); }
  return fetch(card.dataset.editor, { credentials: "same-origin", cache: "no-store", headers: { "HX-Request": "true" } })
    .then((r) => (r.ok ? r.text() : null))
    .then((html) => {
      if (!html || !editor.isConnected) { return; }
      const template = document.createElement("template");
      template.innerHTML = html;
      const fresh = template.content.querySelector(".card-editor");
      if (!fresh || fresh.id !== editor.id) { return; }
      // drawn before an answer that landed meanwhile (its stat line and menus are older
      // than the page's): never put over it; asked again, as the page now stands
      const drawn = fresh.querySelector("form input[name=version]");
      if (drawn && Number(drawn.getAttribute("value")) < versionShown()) {
        return tries > 1 ? refetchEditor(cardId, tries - 1) : undefined;
      }
      Idiomorph.morph(editor, document.importNode(fresh, true), options(new Set(), 0));
      const now = document.getElementById(editor.id);
      if (window.htmx && now) { window.htmx.process(now); }
    })
    .catch(() => {});
}

/* Told after every drawing of the server's that landed (a morph, an answer applied): the
 * page lays its unsent operations back on top and keeps its copy for offline. */
export function redrawn(version) {
  document.dispatchEvent(new CustomEvent("muster:redrawn", { detail: { version: version || versionOf(document) } }));
}
