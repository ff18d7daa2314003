/* The one optimistic layer: what a page draws of its own changes not yet saved (the
 * builder's, optimistic.js; a game's, game-ops.js), over the server's drawing.
 *
 * The server's drawing is the truth, so the layer only ever changes it in ways it can
 * take back: an element it adds carries the layer's mark and goes when lifted; a text it
 * changes, a class it adds, an element it hides keep what the server drew on the element
 * itself (`<prefix>-was`, `-class`, `-hidden`), as does whatever a
 * subject changes of its own (`restore`: its attribute and how to put the server's back).
 * Kept on the element, it is lifted even after a redraw morphed part of the page: what a
 * redraw replaced is the server's again already. Laying is lifting, then drawing each
 * pending change in queue order by its op (a subject's table); one that cannot be drawn
 * is drawn by the server when it answers. Laying again is laying from scratch. */

export const MARK = "not yet saved";

/* `prefix`: the layer's attributes' ("data-optimistic": data-optimistic-was, ...);
 * `mark`: what an element it adds carries (the prefix itself unless said); `restore`: the
 * subject's own restorers, [attribute, (element, kept value) => void], lifted in order. */
export function layer(prefix, { mark = prefix, restore = [] } = {}) {
  const was = prefix + "-was";
  const added = prefix + "-class";
  const hid = prefix + "-hidden";

  /* Drawn by the layer: goes when it is lifted. */
  function marked(element, value) {
    element.setAttribute(mark, value === undefined ? "" : value);
    return element;
  }

  function setText(element, text) {
    if (!element) { return; }
    if (!element.hasAttribute(was)) { element.setAttribute(was, element.textContent); }
    element.textContent = text;
  }

  function addClass(element, className) {
    if (element.classList.contains(className)) { return; }
    element.classList.add(className);
    element.setAttribute(added, className);
  }

  function setHidden(element, hidden) {
    if (element.hidden === hidden) { return; }
    if (!element.hasAttribute(hid)) { element.setAttribute(hid, element.hidden ? "1" : "0"); }
    element.hidden = hidden;
  }

  const restorers = [[hid, (e, v) => { e.hidden = v === "1"; }]].concat(restore, [
    [was, (e, v) => { e.textContent = v; }],
    [added, (e, v) => { e.classList.remove(v); }],
  ]);

  /* The server's drawing as it was, under `root` (the document by default). */
  function lift(root) {
    const under = root || document;
    under.querySelectorAll("[" + mark + "]").forEach((element) => element.remove());
    restorers.forEach(([attribute, back]) => {
      under.querySelectorAll("[" + attribute + "]").forEach((element) => {
        const value = element.getAttribute(attribute);
        element.removeAttribute(attribute);
        back(element, value);
      });
    });
  }

  /* Draws each of `records` (queue order) by its op in the table `draw`, each told its
   * record, its value and `context`. */
  function each(records, draw, context) {
    records.forEach((record) => {
      const drawOne = Object.prototype.hasOwnProperty.call(draw, record.op) ? draw[record.op] : null;
      if (!drawOne) { return; }
      try { drawOne(record, record.value || {}, context); } catch (e) { /* the server draws it when it answers */ }
    });
  }

  /* Lifts, then draws each of `records`. */
  function lay(records, draw, root) {
    lift(root);
    each(records, draw);
  }

  return { marked: marked, setText: setText, addClass: addClass, setHidden: setHidden, lift: lift, each: each, lay: lay };
}
