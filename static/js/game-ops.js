/* A game's actions go through the builder's durable queue (changes/queue.js): each is an
 * operation with a one-time key, kept on the phone (IndexedDB) until the server answered
 * for it, sent in order to the game's POST .../operations/, applied there once. Offline,
 * or on a link that drops, the phone goes on: its actions wait, are shown at once marked
 * "not yet saved" (where the game stands after its own Next phase, a unit it removed, a
 * combat or rally to be worked out, an action taken back), and are sent when the
 * connection returns. The server is the truth: each action made in a turn and phase the
 * game had already left (the other phone moved it on) is refused there, and the page
 * shows each refusal until the player dismisses it, never dropping one silently.
 *
 * Online, a combat is chosen and worked out by the server's forms (they offer what the
 * source allows for the pair and phase); offline the page draws the same choice from the
 * game's offers, kept on the phone (game-choose.js). Each waiting
 * combat, rally, removal and force morale roll is worked out at once by the page's engine
 * (game-engine.js) from the seed the phone chose, and compared with the server's log when
 * it lands; without the engine it is worked out when sent.
 *
 * Without JavaScript nothing of this runs: the forms post as they are. */
import { onceKey, randomHex } from "./changes/keys.js";
import { MARK, layer } from "./changes/layer.js";
import * as queue from "./changes/queue.js";
import { follow } from "./game-follow.js";
import * as exact from "./game-engine.js";
import { chooseOffline, drawChoice, field, keepOffers, offers } from "./game-choose.js";
import { rollDue, whoseTurn } from "./game-where.js";

const root = document.getElementById("game");
const GAME = root && root.dataset.game ? "game-" + root.dataset.game : null;

function game() { return document.getElementById("game"); }
function data() { return game().dataset; }
function online() { return navigator.onLine !== false; }

function phases() {
  try { return JSON.parse(data().phases || "[]"); } catch (e) { return []; }
}

function phaseName(key) {
  const found = phases().find((p) => p.key === key);
  return found ? found.name : key;
}

function unitName(key) {
  const card = document.querySelector('#game [data-unit="' + CSS.escape(key) + '"] h3');
  if (!card) { return key; }
  return (card.firstChild && card.firstChild.textContent ? card.firstChild.textContent : card.textContent).trim();
}

/* Actions the server applied whose drawing has not come yet (the answer names only the
 * version): still shown as this phone's until the page shows that version, so that a
 * second tap meanwhile starts from where the game now is. */
let landed = [];

function unseen() {
  const shown = Number(data().version);
  landed = landed.filter((l) => l.version > shown);
  return landed.map((l) => l.record).concat(queue.pending(GAME));
}

/* Where the game stands on this phone: the server's, moved on by this phone's own Next
 * phase not drawn yet (only one made from where the game then stood, as the server reads it). */
function where() {
  let turn = Number(data().turn);
  let phase = data().phase;
  const keys = phases().map((p) => p.key);
  unseen().forEach((r) => {
    if (r.op !== "next_phase" || !r.value || r.value.turn !== turn || r.value.phase !== phase) { return; }
    const at = keys.indexOf(phase);
    if (at !== -1 && at + 1 < keys.length) { phase = keys[at + 1]; } else { turn += 1; phase = keys[0]; }
  });
  return { turn: turn, phase: phase };
}

// -- what this phone has not sent, drawn over the server's drawing -------------------------

// (game-engine.js marks the lines it draws with the same data-pending-mark)
const pending = layer("data-pending", { mark: "data-pending-mark" });
const { setText, addClass, setHidden } = pending;

function note(text) {
  const p = pending.marked(document.createElement("p"));
  p.className = "pending-note";
  p.textContent = text + " (" + MARK + ")";
  return p;
}

function cardOf(key) {
  return key ? game().querySelector('[data-unit="' + CSS.escape(key) + '"]') : null;
}

function lineOf(value) {
  const log = game().querySelector(".game-log");
  if (!log || !value) { return null; }
  if (value.of) { return log.querySelector('li[data-key="' + CSS.escape(value.of) + '"]'); }
  if (value.number) { return log.querySelector('li[value="' + Number(value.number) + '"]'); }
  return null;
}

let status = "";  // why what waits has not gone yet ("offline, sent when the connection returns")

// -- each kind's waiting action, drawn over the server's drawing (one entry a kind) ----------

// where a combat's, a rally's and a force morale roll's note goes: its unit's card (the
// target's, for a combat), or under its side's heading
const AT = {
  combat: (v) => [cardOf(v.target), "beforeend"],
  rally: (v) => [cardOf(v.unit), "beforeend"],
  force_morale: (v) => [document.getElementById("side-" + v.side), "afterend"],
  initiative: () => [document.getElementById("initiative"), "beforeend"],
  keep_or_pass: () => [document.getElementById("keep-or-pass"), "beforeend"],
};

// what one says while it waits to be worked out (by the engine, or when sent)
const WAITING = {
  combat: (r, v, taken) => (taken.has(r.key) ? "A combat by " + unitName(v.attacker) + ", taken back"
    : "Attacked by " + unitName(v.attacker) + ": hits worked out when sent"),
  rally: () => "Rallies: worked out when sent",
  force_morale: () => "Force morale: worked out when sent",
  initiative: () => "Initiative: worked out when sent",
  keep_or_pass: (r, v) => (v.choice === "keep" ? "Keeps" : "Passes") + " the Initiative: worked out when sent",
};

/* A combat, rally or force morale roll: as this phone's engine worked it out, else waiting. */
function drawWorked(r, v, taken) {
  const [at, place] = AT[r.op](v);
  const by = exact.resultOf(r.key);
  let drawn;
  if (by && by.status !== "waits" && !taken.has(r.key)) {
    drawn = by.status === "worked" ? exact.drawLine(by.line, MARK)
      : note(by.status === "refused" ? (r.label || r.op) + ": the rules refuse it: " + by.message : (r.label || r.op) + ": taken back");
  } else {
    drawn = note(WAITING[r.op](r, v, taken));
  }
  if (at) { at.insertAdjacentElement(place, drawn); }
}

const DRAWN = {
  combat: drawWorked,
  rally: drawWorked,
  force_morale: drawWorked,
  initiative: drawWorked,
  keep_or_pass(r, v, taken) {
    // chosen: the buttons go until the server's drawing says otherwise
    const chosen = game().querySelector('#keep-or-pass form[data-op="keep_or_pass"]');
    if (chosen && !taken.has(r.key)) { setHidden(chosen, true); }
    drawWorked(r, v, taken);
  },
  remove(r, v) {
    const card = cardOf(v.unit);
    if (card) { addClass(card, "removed"); rollDue(game(), v.unit); }
    if (card && !exact.units()[v.unit]) { card.appendChild(note("Removed: " + (v.why || "by the player"))); }
  },
  undo(r, v) {
    const line = lineOf(v);
    if (line) { addClass(line, "undone"); line.appendChild(note(" Taken back")); }
  },
};

function lay() {
  if (!GAME || !game()) { return; }
  pending.lift(game());
  const mine = unseen();
  const now = where();
  // an Initiative roll worked out here may hand the first player turn over (rules.seats)
  const first = exact.holder() || data().first;
  const whose = document.getElementById("whose");
  if (whose && first !== data().first) { setText(whose, whoseTurn({ ...data(), first: first }, now.turn)); }
  // a keep or pass worked out here says at once who moves first (Into the Dark)
  const moves = document.getElementById("first");
  if (moves && mine.some((r) => r.op === "keep_or_pass" && (exact.resultOf(r.key) || {}).status === "worked")) {
    setText(moves, JSON.parse(moves.dataset.names || "{}")[first] + " hold the Initiative and move first.");
  }
  if (now.turn !== Number(data().turn) || now.phase !== data().phase) {
    const shown = document.getElementById("where");
    setText(shown, "Turn " + now.turn + ", " + phaseName(now.phase));
    if (whose) { setText(whose, whoseTurn({ ...data(), first: first }, now.turn)); }
    shown.appendChild(document.createTextNode(" "));
    const mark = pending.marked(document.createElement("span"));
    mark.className = "optimistic-mark";
    mark.textContent = "(" + MARK + ")";
    shown.appendChild(mark);
  }
  const rally = game().querySelector("form[data-rally-phase]");
  if (rally) {
    const here = rally.getAttribute("data-rally-phase") === now.phase;
    setHidden(rally, !here);
    const later = game().querySelector("[data-rally-later]");  if (later) { setHidden(later, here); }
  }
  const undo = game().querySelector('form[data-op="undo"]');  if (undo) { setHidden(undo, !undoable()); }
  Object.entries(exact.units()).forEach(([key, text]) => {
    const shown = cardOf(key) && cardOf(key).querySelector(".unit-state");
    if (shown) { setHidden(shown, true); shown.after(note(text)); }
    if (/^Removed|To be removed/.test(text)) { rollDue(game(), key); }
  });
  const taken = new Set(mine.filter((r) => r.op === "undo" && r.value && r.value.of).map((r) => r.value.of));
  // the roll's winner chooses (worked out here, or chosen here already): its buttons, at once
  const chose = mine.map((r) => exact.resultOf(r.key)).find((by) => by && by.op === "keep_or_pass" && by.status === "worked");
  drawChoice(exact.choosing() || (chose ? chose.payload.side : ""), pending.marked);
  pending.each(mine, DRAWN, taken);
  drawPending(queue.pending(GAME));
  exact.ask(mine, (offers() || {}).table);
  exact.compare();
}

function drawPending(mine) {
  const box = document.getElementById("game-pending");
  if (!box) { return; }
  box.replaceChildren();
  box.hidden = mine.length === 0;
  if (!mine.length) { return; }
  const head = document.createElement("p");
  head.textContent = "Waiting to be sent (" + mine.length + "), " + MARK
    + (status ? ": " + status : online() ? ": sending…" : ": offline, sent when the connection returns");
  const list = document.createElement("ol");
  mine.forEach((r) => {
    const item = document.createElement("li");
    const by = exact.resultOf(r.key);  // worked out on this phone: what it comes to
    item.textContent = (r.label || r.op) + (by && by.status === "worked" && by.op !== "next_phase" ? ": " + by.line.text : "");
    list.appendChild(item);
  });
  box.append(head, list);
}

// -- refusals: shown until dismissed ----------------------------------------------------

const REFUSED = "muster-game-refused-";

function refusals() {
  try { return JSON.parse(sessionStorage.getItem(REFUSED + GAME) || "[]"); } catch (e) { return []; }
}

function keepRefusals(list) {
  try { sessionStorage.setItem(REFUSED + GAME, JSON.stringify(list.slice(-20))); } catch (e) { /* shown this once */ }
  drawRefusals(list);
}

function drawRefusals(list) {
  const box = document.getElementById("game-refused");
  if (!box) { return; }
  box.replaceChildren();
  box.hidden = list.length === 0;
  if (!list.length) { return; }
  const head = document.createElement("p");
  head.textContent = list.length === 1 ? "One action was not applied:" : list.length + " actions were not applied:";
  const items = document.createElement("ul");
  list.forEach((r) => {
    const item = document.createElement("li");
    item.textContent = (r.label ? r.label + ": " : "") + r.message;
    items.appendChild(item);
  });
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary";
  button.textContent = "Dismiss";
  button.addEventListener("click", () => keepRefusals([]));
  box.append(head, items, button);
}

// -- queueing -------------------------------------------------------------------------

function enqueue(op, value, label) {
  const record = {
    key: onceKey(), army: GAME, url: data().operationsUrl,
    base_version: Number(data().version), op: op, value: value, label: label,
  };
  status = "";
  queue.enqueue(record, 0);
  lay();
  return record;
}

function checked(form, name) {
  return Array.from(form.querySelectorAll('input[name="' + name + '"]:checked:not([disabled])')).map((i) => i.value);
}


function combatOf(form) {
  const now = where();
  const die = field(form, "die");
  return {
    attacker: field(form, "attacker"), target: field(form, "target"), modifiers: checked(form, "modifier").concat(
      Array.from(form.querySelectorAll('input[type=hidden][name="modifier"]')).map((i) => i.value)),
    die: die, numbers: field(form, "numbers"), seed: field(form, "seed") || (die ? "" : randomHex(8)),
    turn: now.turn, phase: now.phase,
  };
}

function combatFrom(form) {
  const value = combatOf(form);
  const dice = value.die ? "die " + value.die : "dice from this phone's seed";
  return enqueue("combat", value, unitName(value.attacker) + " against " + unitName(value.target) + " (" + dice + ")");
}

/* What Undo would take back on this phone: its newest action not sent (or on its way), else
 * the newest standing in the log, its own on two phones, not taken back by a waiting undo. */
function undoTarget() {
  const waiting = unseen();
  const taken = new Set(waiting.filter((r) => r.op === "undo").map((r) => r.value.of || "#" + r.value.number));
  const mine = waiting.filter((r) => r.op !== "undo" && !taken.has(r.key));
  if (mine.length) { return { record: mine[mine.length - 1] }; }
  const lines = Array.from(game().querySelectorAll(".game-log > li[data-kind]"));
  const seat = data().seat;
  const line = lines.find((li) => li.getAttribute("data-kind") !== "undo" && !li.classList.contains("undone")
    && (!seat || !li.dataset.seat || li.dataset.seat === seat)
    && !taken.has(li.getAttribute("data-key") || "#" + li.value));
  return line ? { line: line } : null;
}

function undoable() { return undoTarget() !== null; }

function undo() {
  const found = undoTarget();
  if (!found) { return; }
  if (found.record) {
    // not sent yet: simply not sent; on its way: taken back by its key once it lands
    if (queue.drop(GAME, found.record.key)) { lay(); return; }
    enqueue("undo", { of: found.record.key }, "Take back: " + (found.record.label || found.record.op));
    return;
  }
  const line = found.line;
  const key = line.getAttribute("data-key");
  const text = (line.firstChild && line.firstChild.textContent ? line.firstChild.textContent : "").trim();
  enqueue("undo", key ? { of: key } : { number: line.value }, "Take back: " + (text || "action " + line.value));
}

/* Each kind's form read into its operation (one entry a kind): the value the server reads
 * (a die or dice left empty: the seed goes with the operation, so a resend rolls the same)
 * and the label the page shows while it waits. */
const ACTS = {
  next_phase: (form, now) => enqueue("next_phase", now, "Next phase, from Turn " + now.turn + ", " + phaseName(now.phase)),
  undo: () => undo(),
  remove(form, now) {
    const unit = field(form, "unit");
    enqueue("remove", { unit: unit, why: field(form, "why"), turn: now.turn, phase: now.phase }, "Remove " + unitName(unit));
    const open = form.closest("details");
    if (open) { open.open = false; }
    form.reset();
  },
  rally(form, now) {
    const unit = field(form, "unit");
    if (!unit) { return; }
    const die = field(form, "die");
    enqueue("rally", { unit: unit, facts: checked(form, "fact"), die: die, seed: die ? "" : randomHex(8), turn: now.turn, phase: now.phase },
      "Rally " + unitName(unit));
    form.reset();
  },
  force_morale(form, now) {
    const dice = field(form, "dice");
    enqueue("force_morale", { side: field(form, "side"), dice: dice, count: Number(field(form, "count") || "1"),
      seed: dice ? "" : randomHex(8), bonus: checked(form, "bonus").length, turn: now.turn, phase: now.phase },
    "Force morale: " + (form.getAttribute("data-side-name") || field(form, "side")));
    form.reset();
  },
  initiative(form, now) {
    const dice = field(form, "dice");
    const penalty = Boolean(form.querySelector('[name="penalty"]:checked'));
    enqueue("initiative", { dice: dice, seed: dice ? "" : randomHex(8), penalty: penalty, turn: now.turn, phase: now.phase }, "Initiative roll");
    form.reset();
  },
  keep_or_pass(form, now, button) {
    // the winner's choice is the button tapped: one tap, no other field
    const choice = button && button.value;
    if (choice !== "keep" && choice !== "pass") { return; }
    enqueue("keep_or_pass", { choice: choice, turn: now.turn, phase: now.phase },
      choice === "keep" ? "Keep the Initiative" : "Pass the Initiative");
  },
  combat(form) {
    combatFrom(form);
    // the worked-out combat is on its way: the page goes back to the game
    const worked = form.closest("[data-in-progress]");
    if (worked) { worked.hidden = true; }
  },
};

/* Choosing a combat's pair and working it out: online, the server's forms (they offer what
 * applies and work the combat out before it counts) unless the engine works it out here. */
function workOut(form, event) {
  const op = form.dataset.op;
  // online with the engine ready, the combat is worked out on the phone, at once, from
  // the seed it chose (the server works it out again when applied, from the same seed)
  const table = (offers() || {}).table;
  if (op === "work_out" && !form.hasAttribute("data-offline") && exact.working() && table) {
    event.preventDefault();
    exact.workOutHere(form, unseen(), table, combatOf(form));
    return;
  }
  if (online() && !form.hasAttribute("data-offline")) { return; }
  event.preventDefault();
  if (op === "choose") {  // a card's pick sets its half of the combat's pair
    const pair = form.dataset.pick ? game().querySelector("form.game-pair") : form;
    if (pair && pair !== form) { pair.elements[form.dataset.pick].value = field(form, form.dataset.pick); }
    chooseOffline(pair || form, where(), unitName);
    return;
  }
  combatFrom(form);
  const die = form.querySelector('[name="die"]');
  if (die) { die.value = ""; }
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!GAME || !(form instanceof HTMLFormElement) || !form.dataset.op || !game() || !game().contains(form)) { return; }
  const op = form.dataset.op;
  if (op === "choose" || op === "work_out") { workOut(form, event); return; }
  // a kind this page does not know posts as it is, as without JavaScript
  if (!Object.prototype.hasOwnProperty.call(ACTS, op)) { return; }
  event.preventDefault();
  ACTS[op](form, where(), event.submitter);
}, true);

// -- answers -----------------------------------------------------------------------------

queue.on("answered", (army, batch, answer) => {
  if (army !== GAME) { return; }
  const labels = {};
  batch.forEach((r) => { labels[r.key] = r.label; });
  const results = (answer && answer.results) || [];
  // refused, a conflict (the other phone's action came first) or gone (its unit was
  // removed since): each is shown to the player, never dropped
  const made = (r) => r.status === "applied" || r.status === "duplicate";
  const refused = results.filter((r) => !made(r))
    .map((r) => ({ label: labels[r.key] || "", message: r.message || r.status }));
  const applied = new Set(results.filter(made).map((r) => r.key));
  if (answer && answer.version) {
    batch.filter((r) => applied.has(r.key)).forEach((r) => landed.push({ record: r, version: Number(answer.version) }));
  }
  if (refused.length) { keepRefusals(refusals().concat(refused)); }
  status = "";
  follow(true, Number((answer && answer.version) || 0)).catch(() => {}).then(lay);
});
queue.on("failed", (batch, why) => {
  if (!batch.length || batch[0].army !== GAME) { return; }
  status = why;
  lay();
});
queue.on("changed", () => lay());

document.addEventListener("muster:game-drawn", () => {
  const drawn = document.getElementById("combat-offline");
  if (drawn && online()) { drawn.remove(); }  // the server's own forms are back
  lay();
});
window.addEventListener("online", () => { status = ""; queue.send(GAME); keepOffers(); lay(); });
window.addEventListener("offline", () => lay());

if (GAME) {
  exact.onAnswer(lay);
  document.addEventListener("muster:engine", () => lay());
  drawRefusals(refusals());
  queue.load(GAME).then(() => { lay(); queue.send(GAME); });
  keepOffers();
}
