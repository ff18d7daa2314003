/* The builder's exact figures, worked out on this device after every tap and keystroke,
 * online and offline: the page's engine (static/js/engine/client.js, the rules package in
 * a worker) checks the army as the page holds it (the saved document the server drew,
 * #engine-army, with this page's operations answered since and those not yet answered)
 * and this module writes what it answers (rules/page/builder.py: points, the cost's
 * steps, the stat line, the card head's words, problems, the total, the Legal badge, the
 * picker's counts) into the elements the server drew. Nothing here works a figure out:
 * every number and word comes from the engine or the server.
 *
 * The server stays the authority: its drawing comes in as before, and once nothing is
 * waiting, what it drew (data-points, data-valid, data-messages) is held against the
 * engine's figures for the same army; a difference is a defect, reported on the console,
 * on <html data-engine-mismatch> and as a "muster:engine-mismatch" event.
 *
 * Until the engine is ready (or where it is off or failed), or while the page holds a
 * change only the server can work out (a roll, an undo), the figures are the server's: a
 * card or total that a change made offline (or not sent) has moved says "points when back
 * online" and shows no number. */
import * as queue from "./queue.js";

const TARGET = "rules.page.builder:report";
const UNKNOWN = "points when back online";
const WIRE = ["key", "op", "target", "field", "value"];

let landed = [];      // this page's operations applied by the server since the drawn document
let sent = { army: null, version: null, lists: null };  // what the engine already keeps
let asking = false;
let askAgain = false;
let failed = new Set();  // keys of operations whose sending failed (offline, no answer)
let exact = false;       // the figures on screen are the engine's

export function active() { return exact; }

function readJson(id) {
  const element = document.getElementById(id);
  if (!element) { return null; }
  try { return JSON.parse(element.textContent); } catch (e) { return null; }
}

function drawn() {
  const found = readJson("engine-army");
  return found && found.army ? found : null;
}

function armyNow() {
  const builder = document.getElementById("builder");
  return builder && builder.dataset.army ? Number(builder.dataset.army) : null;
}

function versionNow() {
  const input = document.getElementById("army-version");
  return input ? Number(input.value) : 0;
}

function engine() {
  const found = window.MusterEngine;
  return found && found.status === "ready" ? found : null;
}

function wire(record, value) {
  const found = {};
  WIRE.forEach((name) => { if (record[name] !== undefined) { found[name] = record[name]; } });
  if (value !== undefined) { found.value = value; }
  return found;
}

// -- what the server applied of this page's operations -----------------------------------

queue.on("answered", (army, batch, answer) => {
  if (army !== armyNow()) { return; }
  (answer.results || []).forEach((result) => {
    const record = batch.find((r) => r.key === result.key);
    failed.delete(result.key);
    if (!record || result.status !== "applied") { return; }
    const value = record.op === "set" && "value" in result ? result.value : undefined;
    landed.push({ op: wire(record, value), version: Number(result.version || answer.version || 0) });
  });
});
queue.on("failed", (batch) => { batch.forEach((r) => failed.add(r.key)); });

/* The operations the figures are worked out with: those landed since the drawn
 * document's version, then those still unanswered. */
function operations(base, army) {
  landed = landed.filter((l) => l.version > base.version);
  return landed.map((l) => l.op).concat(queue.pending(army).map((r) => wire(r)));
}

// -- asking the engine -----------------------------------------------------------------

export function refresh() {
  const army = armyNow();
  const base = drawn();
  if (army === null) { return; }
  // a page without the engine carries no army to work from: the figures wait for the server
  const found = base ? engine() : null;
  if (!found) { fallback(army); return; }
  if (asking) { askAgain = true; return; }
  asking = true;
  const pending = queue.pending(army);
  const ops = operations(base, army);
  // the version the server's drawing of these operations has (all landed, none waiting)
  const upto = landed.reduce((most, l) => Math.max(most, l.version), base.version);
  const args = { army: base.army, version: base.version, operations: ops, lists_key: base.lists_key };
  if (sent.army !== base.army || sent.version !== base.version) { args.document = base.document; }
  if (sent.lists !== base.lists_key) { args.lists = readJson("engine-lists"); }
  const shownVersion = versionNow();
  const started = performance.now();
  found.call(TARGET, args).then((figures) => {
    sent = { army: base.army, version: base.version, lists: base.lists_key };
    if (figures.unapplied.length) { exact = false; fallback(army); return; }
    draw(figures);
    document.documentElement.dataset.exactMs = String(Math.round(performance.now() - started));
    if (!pending.length && !queue.pending(army).length && versionNow() === shownVersion && upto === shownVersion) {
      compare(figures, shownVersion);
    }
  }).catch((error) => {
    const message = String(error && error.message || error);
    if (message.indexOf("NeedsDocument") === 0) { sent = { army: null, version: null, lists: null }; askAgain = true; return; }
    exact = false;
    fallback(army);
    if (window.console) { console.warn("Muster engine: the builder's figures:", message); }
  }).finally(() => {
    asking = false;
    if (askAgain) { askAgain = false; refresh(); }
  });
}

// -- drawing ---------------------------------------------------------------------------

function setText(element, text) {
  if (element && element.textContent !== text) { element.textContent = text; }
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

/* A part of the head drawn only when it says something: made after `after` if missing. */
function headPart(head, selector, tag, className, text, after) {
  let element = head.querySelector(selector);
  if (!text) { if (element) { element.remove(); } return; }
  if (!element) {
    element = document.createElement(tag);
    element.className = className;
    const anchor = after ? head.querySelector(after) : null;
    if (anchor) { anchor.after(" ", element); } else { head.append(" ", element); }
  }
  setText(element, text);
}

function drawPoints(head, unit, usesPoints) {
  let points = head.querySelector(".points");
  if (!usesPoints || unit.points === null) { return; }
  if (!points) { points = span("points", ""); head.append(" ", points); }
  points.classList.remove("points-unknown", "estimated");
  points.removeAttribute("title");
  if (points.querySelector(".estimate-note") || points.textContent !== unit.points + " pts") {
    points.textContent = unit.points + " pts";
  }
}

function drawProblems(summary, unit) {
  let box = summary.querySelector(".card-problems");
  const words = unit.problems.map((p) => p.severity + ":" + p.message).join("\n");
  if (!unit.problems.length) { if (box) { box.remove(); } return; }
  if (box && box.dataset.drawn === words) { return; }
  if (!box) { box = span("card-problems", ""); summary.appendChild(box); }
  box.replaceChildren(...unit.problems.map((p) => span("card-problem " + p.severity, p.message)));
  box.dataset.drawn = words;
}

function drawMark(head, unit) {
  const mark = head.querySelector(".item-mark");
  if (!mark) { return; }
  const words = unit.valid ? "ok" : unit.mark;
  if (mark.dataset.drawn === words) { return; }
  if (unit.valid) {
    const ok = span("mark ok", "✓");
    ok.title = "No errors";
    ok.appendChild(span("visually-hidden", " legal"));
    mark.replaceChildren(ok);
  } else {
    mark.replaceChildren(span("mark bad", unit.mark));
  }
  mark.dataset.drawn = words;
}

function drawStats(anchor, stats) {
  const list = document.getElementById(anchor + "-stats");
  if (!list) { return; }
  const words = JSON.stringify(stats);
  if (list.dataset.drawn === words) { return; }
  list.replaceChildren(...stats.map(([label, value]) => {
    const row = document.createElement("div");
    const term = document.createElement("dt");
    const text = document.createElement("dd");
    term.textContent = label;
    text.textContent = value;
    row.append(term, text);
    return row;
  }));
  list.hidden = !stats.length;
  list.dataset.drawn = words;
}

function drawItem(unit, usesPoints) {
  const card = document.getElementById(unit.anchor);
  const summary = document.getElementById(unit.anchor + "-summary")
    || (card ? card.querySelector(".item-summary") : null);
  if (!card || !summary) { return; }
  const head = summary.querySelector(".item-head") || summary;
  setText(head.querySelector(".item-number"), unit.number + ".");
  if (unit.name) { setText(head.querySelector(".item-name"), unit.name); }
  headPart(head, ".item-code", "code", "item-code", unit.code, ".item-name");
  headPart(head, ".item-kind", "span", "item-kind", unit.descriptor, ".item-code, .item-name");
  headPart(head, ".item-size", "span", "item-size", unit.size, ".item-kind, .item-code, .item-name");
  drawMark(head, unit);
  drawPoints(head, unit, usesPoints);
  let steps = summary.querySelector(".breakdown");
  if (unit.breakdown.length && !steps) {
    steps = span("breakdown", "");
    steps.title = "How the cost is worked out";
    head.after(steps);
  }
  if (steps) {
    steps.hidden = !unit.breakdown.length;
    setText(steps, unit.breakdown.join(" · "));
  }
  drawProblems(summary, unit);
  drawStats(unit.anchor, unit.stats);
  card.classList.toggle("has-errors", !unit.valid);
  summary.classList.toggle("invalid", !unit.valid);
}

function drawTotals(totals, firstProblem) {
  const panel = document.getElementById("army-totals");
  if (!panel) { return; }
  panel.classList.remove("estimated", "points-unknown");
  panel.classList.toggle("over", !!totals.over);
  panel.querySelectorAll(".total-line .estimate-note").forEach(dropNote);
  setText(document.getElementById("total-points"), totals.total === null ? "" : String(totals.total));
  setText(document.getElementById("units-total"), totals.units_text);
  setText(document.getElementById("matrix-rows"), totals.matrix_text);
  const bar = panel.querySelector("progress.bar");
  if (bar) {
    bar.hidden = false;
    if (bar.value !== totals.percent) { bar.value = totals.percent; }
    bar.setAttribute("aria-label", totals.percent + "% of the points limit");
    bar.textContent = totals.percent + "%";
  }
  setText(document.getElementById("points-left"), totals.left);
  const verdict = document.getElementById("verdict");
  const words = [totals.verdict, totals.problems, firstProblem].join("|");
  if (verdict && verdict.dataset.drawn !== words) {
    const badge = span("badge" + (totals.verdict_class ? " " + totals.verdict_class : ""), totals.verdict);
    let count = document.createTextNode(totals.problems);
    if (totals.errors || totals.warnings) {
      count = document.createElement("a");
      count.className = "jump";
      count.href = firstProblem;
      count.setAttribute("data-open-target", "");
      count.textContent = totals.problems;
    }
    verdict.replaceChildren(badge, "\n          ", count);
    verdict.dataset.drawn = words;
  }
}

function drawIssues(figures) {
  const section = document.getElementById("issues");
  if (!section) { return; }
  const words = JSON.stringify([figures.issues, figures.totals.units]);
  if (section.dataset.drawn === words) { return; }
  const heading = section.querySelector("h2");
  let body;
  if (figures.issues.length) {
    body = document.createElement("ul");
    body.className = "issue-list";
    figures.issues.forEach((issue) => {
      const item = document.createElement("li");
      item.className = "issue " + issue.severity;
      item.dataset.code = issue.code;
      const rule = span("rule", "Rule: " + issue.rule);
      if (issue.href) {
        const link = document.createElement("a");
        link.href = issue.href;
        link.setAttribute("data-open-target", "");
        link.textContent = issue.target;
        rule.append(" · ", link);
      }
      item.append(span("badge " + issue.severity, issue.severity), " ", span("message", issue.message), " ", rule);
      body.appendChild(item);
    });
  } else {
    body = document.createElement("p");
    body.className = figures.totals.units ? "ok" : "meta";
    body.textContent = figures.totals.units ? "No problems: this army is legal." : "No units yet: add one to start.";
  }
  section.replaceChildren(heading, body);
  section.dataset.drawn = words;
}

function drawPicker(entries) {
  entries.forEach((entry) => {
    const tile = document.getElementById("add-" + entry.dom_id);
    if (!tile) { return; }
    tile.classList.toggle("required", entry.required);
    if (entry.full) { tile.setAttribute("aria-disabled", "true"); } else { tile.removeAttribute("aria-disabled"); }
    let count = tile.querySelector(".entry-count");
    if (!count && entry.counts) {
      const meta = tile.querySelector(".entry-meta");
      if (!meta) { return; }
      count = span("entry-count", "");
      count.id = "count-" + entry.dom_id;
      meta.append(" ", count);
    }
    setText(count, entry.counts);
  });
}

function draw(figures) {
  exact = true;
  const usesPoints = figures.totals.uses_points;
  figures.units.forEach((unit) => drawItem(unit, usesPoints));
  figures.generals.forEach((general) => drawItem(general, usesPoints));
  drawTotals(figures.totals, figures.first_problem);
  drawIssues(figures);
  drawPicker(figures.entries);
  document.documentElement.dataset.exactFigures = String(figures.version);
  document.dispatchEvent(new CustomEvent("muster:exact", { detail: { figures: figures } }));
}

// -- the server's drawing, as long as the engine cannot draw it -------------------------

function note(text) { return span("estimate-note", text); }

/* A note taken away with the space put before it. */
function dropNote(element) {
  const before = element.previousSibling;
  if (before && before.nodeType === 3 && before.textContent === " ") { before.remove(); }
  element.remove();
}

/* The server's figures, and no number where a change the page holds has moved it. */
function fallback(army) {
  const offline = navigator.onLine === false;
  const moved = queue.pending(army).filter((r) => offline || failed.has(r.key));
  const units = new Set(moved.filter((r) => r.op === "set" && r.target !== "army").map((r) => r.target));
  document.querySelectorAll("li.item:not([data-optimistic]) .item-summary .points[data-points]").forEach((points) => {
    const card = points.closest("li.item");
    const id = card.id.replace(/^(unit|general)-/, "");
    if (units.has(id)) {
      if (!points.classList.contains("points-unknown")) {
        points.replaceChildren(note(UNKNOWN));
        points.classList.add("points-unknown");
        points.title = "Worked out by the server when the connection returns";
      }
    } else if (points.classList.contains("points-unknown")) {
      points.textContent = points.dataset.points + " pts";
      points.classList.remove("points-unknown");
      points.removeAttribute("title");
    }
  });
  const total = document.getElementById("total-points");
  if (!total) { return; }
  const line = total.closest(".total-line");
  let mark = line ? line.querySelector(".estimate-note") : null;
  if (moved.length) {
    setText(total, "—");
    if (!mark && line) { mark = note(UNKNOWN); line.append(" ", mark); }
  } else {
    setText(total, total.dataset.points || "");
    if (mark) { dropNote(mark); }
  }
}

// -- the server's answer confirms ---------------------------------------------------------

function mismatch(what, server, engineSays, version) {
  const found = { what: what, server: server, engine: engineSays, version: version };
  const root = document.documentElement;
  let all = [];
  try { all = JSON.parse(root.dataset.engineMismatch || "[]"); } catch (e) { all = []; }
  all.push(found);
  root.dataset.engineMismatch = JSON.stringify(all.slice(-20));
  console.error("Muster engine: the server and this device differ on " + what + ": server "
    + JSON.stringify(server) + ", device " + JSON.stringify(engineSays) + " (version " + version + ")");
  document.dispatchEvent(new CustomEvent("muster:engine-mismatch", { detail: found }));
}

/* The server's figures for the version on screen against the engine's for the same army. */
function compare(figures, version) {
  figures.units.concat(figures.generals).forEach((unit) => {
    const points = document.querySelector("#" + CSS.escape(unit.anchor) + "-summary .points[data-points]");
    if (points && Number(points.dataset.points) !== unit.points) {
      mismatch(unit.anchor + " points", Number(points.dataset.points), unit.points, version);
    }
  });
  const total = document.getElementById("total-points");
  if (total && total.dataset.points !== undefined && String(figures.totals.total) !== total.dataset.points) {
    mismatch("the total", total.dataset.points, figures.totals.total, version);
  }
  const panel = document.getElementById("army-totals");
  if (panel && panel.dataset.valid !== undefined) {
    const server = [panel.dataset.valid === "true", Number(panel.dataset.errors), Number(panel.dataset.warnings)];
    const device = [figures.totals.valid, figures.totals.errors, figures.totals.warnings];
    if (JSON.stringify(server) !== JSON.stringify(device)) { mismatch("legal, errors, warnings", server, device, version); }
  }
  const issues = document.getElementById("issues");
  if (issues && issues.dataset.messages) {
    const device = figures.issues.map((i) => i.message);
    let server = null;
    try { server = JSON.parse(issues.dataset.messages); } catch (e) { server = null; }
    if (JSON.stringify(server) !== JSON.stringify(device)) { mismatch("the problems", server, device, version); }
  }
  document.documentElement.dataset.exactConfirmed = String(version);
}

// -- when --------------------------------------------------------------------------------

queue.on("changed", () => refresh());
["muster:optimistic", "muster:redrawn", "muster:morphed", "htmx:afterSettle"].forEach((name) => {
  document.addEventListener(name, () => refresh());
});
document.addEventListener("muster:engine", () => refresh());
window.addEventListener("online", () => refresh());
window.addEventListener("offline", () => refresh());
