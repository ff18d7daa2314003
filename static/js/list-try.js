/* "Try it" worked out on this device: after every change of the list editor (online and
 * offline) the page's engine (engine/client.js, the same rules package in a worker) tries
 * the list as this page holds it (the saved list it was drawn from, the changes the
 * server has applied since, and those still waiting in the change queue) and the panel is
 * drawn at once from its answer (rules.page.lists.try_list). Once nothing waits, the
 * panel is the server's trial again.
 *
 * The server stays the judge: each drawing of the editor it sends carries its own trial
 * (#list-trial-server) and the list it was made from; the engine tries that same list and
 * the two must be equal. A difference is a defect: reported on the console, and the panel
 * says data-engine-check="differs" (else "same").
 *
 * Without the engine (off, failed, not ready yet) or without JavaScript, the panel is the
 * server's, as before. */
import * as queue from "./changes/queue.js";

const TARGET = "rules.page.lists:try_list";
let scope = null;
let drawnFrom = null;     // the #list-engine-document the applied changes are counted from
let applied = [];         // changes the server applied since that drawing
let listsSent = false;
let asked = 0;

function engine() {
  const found = window.MusterEngine;
  return found && found.status !== "off" && found.status !== "failed" ? found : null;
}

function readJSON(id) {
  const element = document.getElementById(id);
  if (!element) { return null; }
  try { return JSON.parse(element.textContent); } catch (e) { return null; }
}

function operation(record) {
  return { key: record.key, op: record.op, section: record.section || "",
           target: record.target || "", field: record.field || "",
           value: record.value === undefined ? "" : record.value, then: record.then || "" };
}

function call(args) {
  const found = engine();
  if (!found) { return Promise.resolve(null); }
  const lists = readJSON("list-engine-lists");
  if (!lists) { return Promise.resolve(null); }
  const sent = Object.assign({ lists_key: Object.keys(lists).join(",") }, args);
  if (!listsSent) { sent.lists = lists; }
  return found.call(TARGET, sent).then((answer) => { listsSent = true; return answer; }, (error) => {
    if (String(error && error.message).indexOf("UnknownLists") === 0 && !sent.lists) {
      listsSent = false;
      return call(args);
    }
    throw error;
  });
}

// -- drawing -----------------------------------------------------------------------------

function el(tag, className, text) {
  const made = document.createElement(tag);
  if (className) { made.className = className; }
  if (text !== undefined) { made.textContent = text; }
  return made;
}

/* The panel as the server's template draws it (templates/catalog/list_editor.html). */
function drawTrial(holder, trial) {
  const parts = [];
  if (trial.broken) {
    parts.push(el("p", "field-error", "No army yet: " + trial.broken));
  } else {
    const line = el("p", "", "Built as a player would from the builder's tiles");
    if (trial.points !== null && trial.points !== undefined) {
      line.append(": ", el("strong", "trial-points", trial.points + " points"));
    }
    line.append(".");
    parts.push(line);
    const tiles = el("ul", "tiles");
    trial.units.forEach(([label, count]) => { tiles.append(el("li", "", count + " × " + label)); });
    if (!trial.units.length) { tiles.append(el("li", "", "No units yet.")); }
    parts.push(tiles);
    if (trial.errors.length || trial.warnings.length) {
      const problems = el("ul", "trial-problems");
      trial.errors.forEach((m) => problems.append(el("li", "error", m)));
      trial.warnings.forEach((m) => problems.append(el("li", "warning", m)));
      parts.push(problems);
    } else {
      parts.push(el("p", "trial-valid", "The sample army is legal."));
    }
  }
  holder.replaceChildren(...parts);
}

function noteOf(answer, waiting) {
  const said = [];
  if (waiting) { said.push("Worked out on this device with the changes not sent yet."); }
  (answer.left_out || []).forEach((out) => {
    said.push("Left out, the list refuses it: " + out.why);
  });
  if (answer.waits) {
    said.push("The " + (answer.waits === "then" ? "chosen step" : answer.waits)
      + " and what follows are tried once the server has them.");
  }
  (answer.problems || []).forEach((problem) => { said.push("The list: " + problem); });
  return said.join(" ");
}

function draw(answer, waiting) {
  const panel = document.getElementById("list-try");
  const holder = panel && panel.querySelector("[data-trial-drawn]");
  if (!holder) { return; }
  drawTrial(holder, answer.trial);
  panel.dataset.trialFrom = waiting ? "device" : "server";
  const note = panel.querySelector("[data-trial-note]");
  if (note) {
    note.textContent = noteOf(answer, waiting);
    note.hidden = !note.textContent;
  }
}

function confirm(answer, server) {
  const panel = document.getElementById("list-try");
  if (!panel || !server) { return; }
  const same = JSON.stringify(answer.trial) === JSON.stringify(server);
  panel.dataset.engineCheck = same ? "same" : "differs";
  if (!same) {
    console.error("Muster engine: the server and this device differ on the list's Try it: server "
      + JSON.stringify(server) + ", device " + JSON.stringify(answer.trial));
    document.dispatchEvent(new CustomEvent("muster:list-engine-differs",
      { detail: { server: server, device: answer.trial } }));
  }
}

// -- asking ------------------------------------------------------------------------------

/* A new drawing of the editor (the server's answer swapped in): the changes counted so far
 * are in its list now. The status element keeps what the engine last said. */
function noticeDrawing() {
  const now = document.getElementById("list-engine-document");
  if (now === drawnFrom) { return; }
  drawnFrom = now;
  applied = [];
  const status = document.querySelector("#list-try [data-engine-status]");
  if (status && engine()) { status.dataset.engineState = window.MusterEngine.status; }
}

function refresh() {
  noticeDrawing();
  const document_ = readJSON("list-engine-document");
  if (!document_ || !engine() || !scope) { return; }
  const waiting = queue.pending(scope);
  const operations = applied.concat(waiting).map(operation);
  const server = operations.length ? null : readJSON("list-trial-server");
  const mine = ++asked;
  call({ document: document_, operations: operations }).then((answer) => {
    if (!answer || mine !== asked) { return; }  // a newer change asked since
    // nothing waits: the server's trial of this very list is shown (the judge), and held
    // against the device's
    draw(server ? Object.assign({}, answer, { trial: server }) : answer, !server);
    if (server) { confirm(answer, server); }
  }, (error) => {
    // an engine that could not start says so in its status; a failed call is a defect
    if (window.MusterEngine && window.MusterEngine.status === "ready") {
      console.error("Muster engine: the list's Try it:", error && error.message);
    }
  });
}

queue.on("changed", () => { if (scope) { refresh(); } });
// another tab's change drawn in (list-follow.js): the server's trial of the list it drew
document.addEventListener("muster:list-drawn", () => { if (scope) { refresh(); } });
queue.on("answered", (army, batch, answer) => {
  if (army !== scope) { return; }
  // list-editor.js has swapped the server's drawing in by now when nothing waits: that
  // drawing has these changes; else they count on top of the drawing this page has
  const redrawn = document.getElementById("list-engine-document") !== drawnFrom;
  const results = (answer && answer.results) || [];
  results.forEach((result) => {
    const sent = batch.find((r) => r.key === result.key);
    if (sent && !redrawn && result.status === "applied") { applied.push(sent); }
  });
  refresh();
});

function start() {
  const root = document.getElementById("list-editor");
  if (!root || !root.dataset.list || !document.getElementById("list-engine-document")) { return; }
  scope = "list-" + root.dataset.list;
  drawnFrom = document.getElementById("list-engine-document");
  // the changes an earlier page left join the queue by list-editor.js ("changed" then)
  refresh();
}

if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
