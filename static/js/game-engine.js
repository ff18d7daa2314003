/* The phone's own game actions worked out on the phone, at once, offline too: the page's
 * engine (static/js/engine/client.js, the rules in a worker) runs rules.page.game:work on
 * the game's table (kept on the phone with the offers) and where the game stood at this
 * drawing (#game's data-table), with the seeds the phone chose, so the hits, the dice and
 * the steps (each citing its section) show before the server answers. The server stays
 * the truth: when an action's line lands in the log, its words are compared with the
 * phone's; the same is marked confirmed, a difference is shown (both) and reported
 * (document gets "muster:game-engine-differs"; the log line data-engine="differs").
 *
 * Nothing here knows a rule: every number comes from the worker or the server. Without
 * the engine (off, loading, failed, no table kept) the page behaves as before: an action
 * is worked out when sent. */

const worked = new Map();  // key -> the engine's result for one of this phone's actions
const verdicts = new Map();  // key -> { same, mine, theirs }: compared with the server's
let answer = null;  // the engine's last answer, for the drawing it was asked at
let asked = "";
let redraw = () => {};

function engine() {
  const found = window.MusterEngine;
  return found && found.status !== "off" && found.status !== "failed" ? found : null;
}

function game() { return document.getElementById("game"); }

/* Whether the engine works this phone's actions out (ready now). */
export function working() {
  const found = engine();
  return Boolean(found && found.status === "ready");
}

export function onAnswer(callback) { redraw = callback; }

/* Ask the engine for ``records`` (the phone's actions not seen saved, oldest first) worked
 * out from where the game stood at this drawing. Calls back (onAnswer) when it answers. */
export function ask(records, table) {
  const here = game();
  const found = engine();
  if (!here || !found || !table || !here.dataset.table) { answer = null; return; }
  const operations = records.map((r) => ({ key: r.key, op: r.op, value: r.value || {} }));
  const signature = here.dataset.version + "|" + here.dataset.table + "|" + JSON.stringify(operations);
  if (signature === asked) { return; }
  asked = signature;
  let state;
  try { state = JSON.parse(here.dataset.table); } catch (e) { return; }
  found.call("rules.page.game:work", { game: table, state: state, operations: operations })
    .then((given) => {
      if (signature !== asked) { return; }  // a newer drawing or action asked since
      const byKey = {};
      given.results.forEach((r) => {
        byKey[r.key] = r;
        if (r.status === "worked") { worked.set(r.key, r); } else { worked.delete(r.key); }
      });
      answer = { signature: signature, byKey: byKey, units: given.units || {}, routed: given.routed || {},
        holder: (given.table || {}).holder || "", choosing: (given.table || {}).choosing || "" };
      redraw();
    })
    .catch((e) => {
      if (signature !== asked) { return; }
      answer = null;
      if (window.console) { console.warn("The game's engine:", e && e.message); }
      redraw();
    });
}

function current() {
  const here = game();
  return answer && here && answer.signature.startsWith(here.dataset.version + "|" + here.dataset.table + "|") ? answer : null;
}

/* The engine's result for one of this phone's waiting actions, or null (not worked out). */
export function resultOf(key) {
  const now = current();
  return now ? now.byKey[key] || null : null;
}

/* The side holding the Initiative after the phone's actions ("": not worked out here). */
export function holder() {
  const now = current();
  return now ? now.holder : "";
}

/* The side that won an Initiative roll worked out here and is yet to keep or pass it ("":
 * none, or not worked out here). */
export function choosing() {
  const now = current();
  return now ? now.choosing : "";
}

/* Each unit's state in words after the phone's actions, for the units they changed. */
export function units() {
  const now = current();
  return now ? now.units : {};
}

function element(tag, attributes, text) {
  const made = document.createElement(tag);
  Object.entries(attributes || {}).forEach(([name, value]) => made.setAttribute(name, value));
  if (text) { made.textContent = text; }
  return made;
}

/* One worked-out action as the log words it: its text, the dice, the steps with sections. */
export function drawLine(line, mark, pending = true) {
  const box = element("div", pending ? { class: "pending-note engine-worked", "data-pending-mark": "", "data-engine-worked": "" }
    : { class: "engine-worked", "data-engine-worked": "" });
  box.appendChild(element("p", {}, line.text + (mark ? " (" + mark + ")" : "")));
  if (line.dice) { box.appendChild(element("p", {}, "Dice: " + line.dice)); }
  if (line.steps && line.steps.length) {
    const steps = element("ol", { class: "steps" });
    line.steps.forEach((s) => {
      const item = element("li", {}, s.text + " ");
      item.appendChild(element("cite", {}, s.section));
      steps.appendChild(item);
    });
    box.appendChild(steps);
  }
  return box;
}

/* The server's log compared with what this phone worked out, for each of its actions
 * that has landed there: confirmed in place, or the difference shown and reported. */
export function compare() {
  const here = game();
  if (!here) { return; }
  worked.forEach((mine, key) => {
    const line = here.querySelector('.game-log li[data-key="' + CSS.escape(key) + '"]');
    if (!line || verdicts.has(key)) { return; }
    const theirs = line.getAttribute("data-digest") || "";
    const same = theirs === mine.digest;
    verdicts.set(key, { same: same, mine: mine.line, theirs: theirs });
    worked.delete(key);
    if (!same) {
      document.dispatchEvent(new CustomEvent("muster:game-engine-differs", {
        detail: { key: key, phone: mine.digest, server: theirs },
      }));
    }
  });
  const differs = [];
  verdicts.forEach((verdict, key) => {
    const line = here.querySelector('.game-log li[data-key="' + CSS.escape(key) + '"]');
    if (!line) { return; }
    line.setAttribute("data-engine", verdict.same ? "same" : "differs");
    if (!line.querySelector("[data-engine-said]")) {
      line.appendChild(element("p", { class: "hint", "data-engine-said": "" }, verdict.same
        ? "Worked out on this phone: the same."
        : "This phone worked it out otherwise: see above the log."));
    }
    if (!verdict.same) { differs.push(verdict); }
  });
  drawDifferences(differs);
}

function drawDifferences(differs) {
  const box = document.getElementById("game-differs");
  if (!box) { return; }
  box.replaceChildren();
  box.hidden = differs.length === 0;
  if (!differs.length) { return; }
  box.appendChild(element("p", {}, "The server recorded otherwise than this phone worked out "
    + "(the game changed meanwhile, or a fault: the server's log stands):"));
  const list = element("ul");
  differs.forEach((d) => {
    let theirs = {};
    try { theirs = JSON.parse(d.theirs); } catch (e) { theirs = {}; }
    const item = element("li");
    item.appendChild(element("p", {}, "This phone: " + d.mine.text + (d.mine.dice ? "; dice " + d.mine.dice : "")));
    item.appendChild(element("p", {}, "The server: " + (theirs.text || "(no words)") + (theirs.dice ? "; dice " + theirs.dice : "")));
    list.appendChild(item);
  });
  box.appendChild(list);
}

/* The Work out form answered on the phone, online too: the combat's working drawn at once
 * in the log's words, with its Apply (queued and sent with the seed the phone chose, so
 * the server rolls the same dice). Without an answer the form posts to the server. */
export function workOutHere(form, records, table, value) {
  const here = game();
  const found = engine();
  let state = null;
  try { state = JSON.parse(here.dataset.table); } catch (e) { state = null; }
  if (!found || !state) { form.submit(); return; }
  const operations = records.map((r) => ({ key: r.key, op: r.op, value: r.value || {} }))
    .concat([{ key: "worked-here", op: "combat", value: value }]);
  found.call("rules.page.game:work", { game: table, state: state, operations: operations }).then((given) => {
    const mine = given.results[given.results.length - 1];
    if (!mine || (mine.status !== "worked" && mine.status !== "refused")) { form.submit(); return; }
    const old = document.getElementById("combat-here");
    if (old) { old.remove(); }
    if (mine.status === "refused") {
      const said = element("p", { id: "combat-here", class: "game-error", role: "alert" }, mine.message);
      form.after(said);
      return;
    }
    const box = element("div", { id: "combat-here", "data-in-progress": "" });
    box.appendChild(drawLine(mine.line, "worked out on this phone", false));
    const apply = element("form", { method: "post", action: "#combat", "data-op": "combat", class: "actions-row" });
    const keep = { attacker: value.attacker, target: value.target, die: value.die, numbers: value.numbers, seed: value.seed };
    Object.entries(keep).forEach(([name, v]) => apply.appendChild(element("input", { type: "hidden", name: name, value: v || "" })));
    value.modifiers.forEach((m) => apply.appendChild(element("input", { type: "hidden", name: "modifier", value: m })));
    apply.appendChild(element("button", { type: "submit" }, "Apply"));
    const change = element("button", { type: "button", class: "secondary" }, "Change");
    change.addEventListener("click", () => { box.remove(); form.hidden = false; });
    apply.appendChild(change);
    box.appendChild(apply);
    form.hidden = true;
    form.after(box);
  }).catch(() => form.submit());
}
