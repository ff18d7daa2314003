/* The list editor follows its list: the list editor's subject of the one follower
 * (changes/follow.js), which asks the list's version (`data-version-url`,
 * <list>/version.json: its revision) about once a second and, when another tab or device
 * saved a revision, fetches the editor's page once and morphs it in, saying so on the
 * status line ("Updated from another tab or device."). A page opened from the copy kept
 * on this device is drawn from the server once it answers again, and is no longer the copy.
 *
 * What is this page's own stays: a field typed in and not left yet, a field whose change
 * waits or whose conflict is still to be chosen (hook `keep`, list-editor.js lays those
 * again afterwards, hook `after`), a refused value with its refusal, the status line and
 * each field's saving / saved mark. The poll asks nothing while this page's own changes
 * are on their way: their answers bring the editor drawn anew.
 *
 * A focused control the player has not changed follows the server like any other: its
 * drawn value (what a change names as its `from`) must be the list's as it stands, or its
 * next change would come back a conflict that is none. */
import { drawnOnline, follow, morphOptions, typed } from "./changes/follow.js";
import { Idiomorph } from "./vendor/idiomorph.js";

const ID = "list-editor";
const OWN = ["list-status"];  // list-editor.js writes it
const SAID = "Updated from another tab or device.";
const SHOWN = 6000;  // ms the notice stays

function element(node) { return node && node.nodeType === 1; }

function editor() { return document.getElementById(ID); }

function refused(node) {
  return element(node) && node.classList.contains("refusal") && !node.classList.contains("conflict");
}

/* The editor's rules over the ones every followed page keeps. `keep(form)`: whether a
 * field's form is the page's (a change waiting, a conflict open). */
function options(keep) {
  return morphOptions({
    own: OWN,
    focused: typed,
    node(old) {
      if (old.tagName === "FORM" && old.dataset.edit === "field") {
        return !keep(old) && !old.querySelector('[aria-invalid="true"]');
      }
      // "Not saved: ..." stays while a refusal it speaks of does
      return !(old.id === "list-error" && Array.prototype.some.call(editor().querySelectorAll(".refusal"), refused));
    },
    attribute: (name, el) => !(name === "data-state" && el.dataset && el.dataset.edit === "field"),
    removed: (node) => !(refused(node) || (element(node) && node.classList.contains("change-state"))),
  });
}

let noticeTimer = null;

function notice() {
  const line = document.getElementById("list-status");
  if (!line) { return; }
  line.textContent = SAID;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { if (line.textContent === SAID) { line.textContent = ""; } }, SHOWN);
}

/* Follows the list on the editor's page. `h`: keep(form) (above), paused() (this page's
 * own changes are on their way), busy(on) (a morph is under way: its events are not the
 * player's) and after() (the page lays what is its own again). Returns the follower
 * (answered(): told of every answer of the page's own), or null without a version URL. */
export function followList(h) {
  if (!editor() || !editor().dataset.versionUrl) { return null; }
  const rules = options(h.keep);
  const follower = follow({
    id: ID,
    copies: true,  // the service worker keeps the editor's page
    shown: () => Number(editor().dataset.revision),
    drawn: (fresh) => Number(fresh.dataset.revision),
    paused: () => h.paused() || follower.drawing(),
    // a page opened from the device's copy is drawn from the server once it answers
    moved: (version, copy) => (copy ? follower.draw(false, 0) : follower.draw(true, version)),
    morph(fresh, elsewhere) {
      h.busy(true);
      try {
        Idiomorph.morph(editor(), fresh, rules);
      } finally {
        h.busy(false);
      }
      drawnOnline();
      h.after();
      if (elsewhere) { notice(); }
      document.dispatchEvent(new CustomEvent("muster:list-drawn"));
      return null;
    },
  });
  return follower;
}
