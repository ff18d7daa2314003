/* The builder drawn again from the server, keeping what the player is in the middle of.
 *
 * The fallback while an answer brings no out-of-band `html`, and what a reload, Back, a
 * tab shown again or another tab's change do: the page is fetched and only what differs
 * is patched (an open card stays open, the scroll stays put). A field with a queued
 * change, a refused value or a conflict's choice keeps the player's value; a focused
 * control keeps focus. A page fetched before one of this page's changes was answered
 * would put back the value from before it: it is dropped and fetched again. */

let generation = 0;     // bumped by every answer: a redraw fetched before it is stale
let running = null;
let wanted = false;
let wantedOnly;      // undefined: nothing waiting; null: all; a Set: those ids
let noticeTimer = null;
let noticeUntil = 0;
const hooks = { keep: () => false, after() {} };

export function on(name, hook) { hooks[name] = hook; }

export function answeredOnce() { generation++; }

export function noticeShowing() { return Date.now() < noticeUntil; }

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

/* Fetches the builder and patches what changed; `notice`: say it came from elsewhere;
 * `only`: the element ids to patch (what a batch of this page's changed), else all. */
export function redraw(notice, only) {
  if (!document.getElementById("builder") || navigator.onLine === false) { return Promise.resolve(); }
  if (running) { wanted = wanted || notice || true; wantedOnly = merge(wantedOnly, only); return running; }
  const before = generation;
  running = fetch(window.location.pathname + window.location.search, { credentials: "same-origin", cache: "no-store" })
    .then((r) => (r.ok ? r.text() : null))
    .then((html) => {
      const fresh = html ? new DOMParser().parseFromString(html, "text/html").getElementById("builder") : null;
      const old = document.getElementById("builder");
      if (!fresh || !old) { return; }
      if (generation !== before || (drawn(fresh) < versionNow())) {
        wanted = wanted || notice || true;
        wantedOnly = merge(wantedOnly, only);
        return;
      }
      const touched = [];
      if (only) {
        only.forEach((id) => {
          const mine = document.getElementById(id);
          const theirs = fresh.querySelector("#" + CSS.escape(id));
          if (mine && theirs) { patch(mine, document.importNode(theirs, true), touched); }
        });
      } else {
        patch(old, document.importNode(fresh, true), touched);
      }
      if (window.htmx) { touched.forEach((el) => { if (el.isConnected) { window.htmx.process(el); } }); }
      if (notice === true) { showNotice("Updated from another tab or device."); }
      hooks.after();
      document.dispatchEvent(new CustomEvent("muster:redrawn", { detail: { version: versionNow() } }));
    })
    .catch(() => {})
    .then(() => {
      running = null;
      if (wanted) {
        const again = wanted;
        const againOnly = wantedOnly;
        wanted = false;
        wantedOnly = undefined;
        return redraw(again === true, againOnly);
      }
      return null;
    });
  return running;
}

function drawn(fresh) {
  const version = fresh.querySelector("#army-version");
  return version ? Number(version.value) : 0;
}

function merge(a, b) {
  if (a === null || b === null || b === undefined) { return b === undefined ? a : null; }
  return new Set([...(a || []), ...b]);
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

// -- the patch -------------------------------------------------------------------------

const OWN = ["pending-changes", "unsaved", "request-problem"];  // the page's own, never the server's

function words(el) {
  return Array.from(el.childNodes).filter((n) => n.nodeType === 3 && n.nodeValue.trim())
    .map((n) => n.nodeValue.trim()).join("\u0000");
}

function sameShape(a, b) {
  if (a.children.length !== b.children.length || words(a) !== words(b)) { return false; }
  for (let i = 0; i < a.children.length; i++) {
    if (a.children[i].id !== b.children[i].id || a.children[i].tagName !== b.children[i].tagName) { return false; }
  }
  return true;
}

// a field shown by this page (its state label, its message) compares as the server draws it
function bare(wrap) {
  const copy = wrap.cloneNode(true);
  copy.querySelectorAll(".field-state").forEach((n) => n.remove());
  copy.querySelectorAll(".field-msg").forEach((n) => n.replaceChildren());
  ["data-state", "class", "aria-invalid"].forEach((name) => copy.removeAttribute(name));
  copy.querySelectorAll("[aria-invalid]").forEach((n) => n.removeAttribute("aria-invalid"));
  return copy;
}

function patchField(old, fresh, touched) {
  if (hooks.keep(old)) { return; }  // a queued, refused or conflicted value: the player's
  const a = bare(old);
  const b = bare(fresh);
  b.className = fresh.className;
  a.className = fresh.className;
  if (a.isEqualNode(b) && valuesMatch(old, fresh)) { return; }
  const focused = old.contains(document.activeElement) ? document.activeElement : null;
  if (focused && focused.id) {
    // the player is in this field (not typing: nothing queued): the value changes under
    // the caret, the control and its focus stay
    const twin = fresh.querySelector("#" + CSS.escape(focused.id));
    if (twin && twin.tagName === focused.tagName && focused.tagName !== "SELECT") {
      if (focused.type === "checkbox") { focused.checked = twin.hasAttribute("checked"); }
      else { focused.value = twin.tagName === "TEXTAREA" ? twin.textContent : twin.getAttribute("value") || ""; }
      old.dataset.from = fresh.dataset.from || "";
      return;
    }
  }
  old.replaceWith(fresh);
  touched.push(fresh);
}

// the controls as drawn now (typed values are properties, not attributes)
function valuesMatch(old, fresh) {
  const a = old.querySelectorAll("input, select, textarea");
  const b = fresh.querySelectorAll("input, select, textarea");
  if (a.length !== b.length) { return false; }
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.type === "checkbox" || x.type === "radio") {
      if (x.checked !== y.hasAttribute("checked")) { return false; }
    } else if (x.tagName === "SELECT") {
      const chosen = y.querySelector("option[selected]") || y.querySelector("option");
      if (x.value !== (chosen ? chosen.value : "")) { return false; }
    } else if (x.tagName === "TEXTAREA") {
      if (x.value !== y.textContent) { return false; }
    } else if (x.type !== "hidden" && x.value !== (y.getAttribute("value") || "")) {
      return false;
    }
  }
  return true;
}

function patch(old, fresh, touched) {
  if (fresh.id && OWN.indexOf(fresh.id) !== -1) { return; }
  if (fresh.id && fresh.id === old.id && fresh.getAttribute("hx-trigger") === "load") { return; }
  if (old.dataset && old.dataset.field && fresh.dataset && fresh.dataset.field === old.dataset.field) {
    patchField(old, fresh, touched);
    return;
  }
  if (fresh.tagName === "DETAILS") {
    if (old.hasAttribute("open")) { fresh.setAttribute("open", ""); } else { fresh.removeAttribute("open"); }
  }
  if (old.isEqualNode(fresh) && !old.querySelector("[data-field]")) { return; }
  if (old.tagName !== fresh.tagName || /^(INPUT|SELECT|TEXTAREA|OPTION)$/.test(old.tagName) || !sameShape(old, fresh)) {
    if (old.id === "army-version") { old.value = fresh.value; old.setAttribute("value", fresh.value); return; }
    old.replaceWith(fresh);
    touched.push(fresh);
    return;
  }
  let changed = false;
  Array.from(old.attributes).forEach((a) => {
    if (!fresh.hasAttribute(a.name)) { old.removeAttribute(a.name); changed = true; }
  });
  Array.from(fresh.attributes).forEach((a) => {
    if (old.getAttribute(a.name) !== a.value) { old.setAttribute(a.name, a.value); changed = true; }
  });
  if (changed) { touched.push(old); }
  const oldKids = Array.from(old.children);
  const freshKids = Array.from(fresh.children);
  for (let i = 0; i < oldKids.length; i++) { patch(oldKids[i], freshKids[i], touched); }
}
