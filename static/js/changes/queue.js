/* Sending the queue: every unsent operation, in order, in batches, to its army's
 * POST /armies/<pk>/operations/ (JSON, X-CSRFToken, HX-Request: true), or to the URL a
 * record names (a list editor's operations: `army` is then "list-<pk>").
 *
 * Operations stay in the durable store (store.js) until the server answered for their key:
 * a save cut off by a reload, an answer lost with the connection, a tab closed mid-flight,
 * all are sent again by the next page (the server applies each key once, so a resend reads
 * "duplicate"). Once the page starts to leave (beforeunload), answers no longer delete
 * anything: the next page's request may have been read before this one's save committed,
 * so that page resends them and redraws from the server after they land.
 * One batch per army at a time, across tabs too (Web Locks), so order holds. */
import * as store from "./store.js";

const BATCH = 200;
const WIRE = ["key", "army", "base_version", "op", "target", "field", "value", "from", "typing",
  "section", "then", "then_text"];  // the last three: the list editor's (list-editor.js)

let records = [];            // unanswered operations known to this page, oldest first
const flying = new Set();    // keys in a request now
const sending = {};          // army -> a batch is on its way
const again = {};            // army -> more to send once it answers
const timers = {};
const requests = {};         // army -> the AbortController of its batch in flight
let retryTimer = null;
let attempts = 0;
let leaving = false;
let kept = [];               // answered while leaving: deleted once the page stays after all
let stayTimer = null;
let seq = 0;
// each page module listens (the builder's main.js, the list editor's list-editor.js)
const listeners = { answered: [], failed: [], changed: [] };
const hooks = {
  answered(...args) { listeners.answered.forEach((hook) => hook(...args)); },
  failed(...args) { listeners.failed.forEach((hook) => hook(...args)); },
  changed(...args) { listeners.changed.forEach((hook) => hook(...args)); },
};

export function on(name, hook) { listeners[name].push(hook); }

/* The keys of the operations this tab made, newest last (at most OWN), kept for the tab's
 * life (sessionStorage: a reload keeps them, another tab has its own). Each batch names
 * them (`own`): a change of theirs saved since a value was shown is the player's own, so
 * a value made from the older one is no conflict. Another tab's or device's change is. */
const OWN = 100;

function ownKeys(army) {
  try {
    const kept = JSON.parse(sessionStorage.getItem("muster-own-" + army) || "[]");
    return Array.isArray(kept) ? kept.filter((k) => typeof k === "string") : [];
  } catch (e) { return []; }
}

function rememberOwn(record) {
  try {
    const kept = ownKeys(record.army).filter((k) => k !== record.key);
    kept.push(record.key);
    sessionStorage.setItem("muster-own-" + record.army, JSON.stringify(kept.slice(-OWN)));
  } catch (e) { /* storage full or off: conflicts are then raised as before */ }
}

export function nextSeq() {
  seq = Math.max(seq + 1, Date.now() * 1000);
  return seq;
}

export function pending(army) {
  return army === undefined ? records.slice() : records.filter((r) => r.army === army);
}

export function isFlying(record) { return flying.has(record.key); }

/* The newest queued `set` of one field (its value is the next change's "from"). */
export function lastSet(army, target, field) {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r.army === army && r.op === "set" && r.target === target && r.field === field) { return r; }
  }
  return null;
}

/* Queues an operation (kept durably at once) and sends it after `delay` ms. A typed
 * value replaces the army's newest operation when that is the same field's and not
 * sent yet: keystrokes are one change, and the order of changes still holds. */
export function enqueue(record, delay) {
  const mine = records.filter((r) => r.army === record.army);
  const newest = mine[mine.length - 1];
  if (record.op === "set" && newest && newest.op === "set" && !flying.has(newest.key)
      && newest.target === record.target && newest.field === record.field) {
    newest.value = record.value;
    store.put(newest);
    hooks.changed();
    schedule(record.army, delay);
    return newest;
  }
  // the same field's earlier value still in flight: that request is dropped and the queue
  // sent again at once with this value after it (its operations are still stored, and the
  // server applies each key once, so whether it landed or not nothing is lost or doubled)
  if (record.op === "set" && requests[record.army] && mine.some((r) => flying.has(r.key)
      && r.op === "set" && r.target === record.target && r.field === record.field)) {
    requests[record.army].abort();
  }
  record.seq = nextSeq();
  rememberOwn(record);
  records.push(record);
  store.put(record);
  hooks.changed();
  schedule(record.army, delay);
  return record;
}

/* An operation taken back before it was sent (a delete's Undo): false once on its way. */
export function drop(army, key) {
  const found = records.find((r) => r.army === army && r.key === key);
  if (!found || flying.has(key)) { return false; }
  records = records.filter((r) => r !== found);
  store.remove([found]);
  hooks.changed();
  return true;
}

/* Operations stored by earlier pages or other tabs join this page's queue; `only`: just
 * those of one army (a game's page sends its own: a builder's answers need the builder). */
export function load(only) {
  return store.all().then((stored) => {
    const known = new Set(records.map((r) => r.army + " " + r.key));
    stored.forEach((r) => {
      if (only !== undefined && r.army !== only) { return; }
      if (!known.has(r.army + " " + r.key)) { records.push(r); seq = Math.max(seq, r.seq || 0); }
    });
    records.sort((a, b) => a.seq - b.seq);
    hooks.changed();
    return records.slice();
  });
}

function schedule(army, delay) {
  clearTimeout(timers[army]);
  timers[army] = setTimeout(() => send(army), delay || 0);
}

export function sendAll() {
  attempts = 0;
  new Set(records.map((r) => r.army)).forEach((army) => send(army));
}

function csrfToken() {
  try {
    const token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
    if (token) { return token; }
  } catch (e) { /* the cookie then */ }
  const cookie = document.cookie.split("; ").find((c) => c.indexOf("csrftoken=") === 0);
  return cookie ? decodeURIComponent(cookie.split("=")[1]) : "";
}

function wire(record) {
  const sent = {};
  WIRE.forEach((name) => { if (record[name] !== undefined) { sent[name] = record[name]; } });
  return sent;
}

function post(url, batch, keepalive, signal) {
  return fetch(url, {
    signal: signal,
    method: "POST", credentials: "same-origin", cache: "no-store", keepalive: !!keepalive,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), "HX-Request": "true" },
    body: JSON.stringify({ operations: batch.map(wire), own: ownKeys(batch[0].army) }),
  });
}

function withLock(army, task) {
  if (navigator.locks && navigator.locks.request) {
    return navigator.locks.request("muster-operations-" + army, task);
  }
  return task();
}

export function send(army) {
  clearTimeout(timers[army]);
  const waiting = records.filter((r) => r.army === army);
  if (!waiting.length) { return Promise.resolve(); }
  if (navigator.onLine === false) {
    hooks.failed(waiting, "offline, sent when the connection returns");
    return Promise.resolve();
  }
  if (sending[army]) { again[army] = true; return Promise.resolve(); }
  sending[army] = true;
  return withLock(army, () => sendBatch(army)).catch(() => {}).then(() => {
    sending[army] = false;
    if (again[army]) { again[army] = false; return send(army); }
    return null;
  });
}

async function sendBatch(army, chosen) {
  const batch = chosen || records.filter((r) => r.army === army).slice(0, BATCH);
  if (!batch.length) { return; }
  batch.forEach((r) => flying.add(r.key));
  let response = null;
  const control = new AbortController();
  requests[army] = control;
  try {
    response = await post(batch[0].url, batch, false, control.signal);
  } catch (e) {
    response = null;
  } finally {
    batch.forEach((r) => flying.delete(r.key));
    if (requests[army] === control) { delete requests[army]; }
  }
  if (control.signal.aborted) { again[army] = true; return; }  // replaced by a newer value
  if (!response || response.status >= 500 || response.status === 429) {
    const why = !response ? (navigator.onLine === false ? "offline, sent when the connection returns"
      : "no connection, trying again") : "server error " + response.status + ", trying again";
    hooks.failed(batch, why);
    retryLater();
    return;
  }
  let answer = null;
  try { answer = await response.json(); } catch (e) { answer = null; }
  if (response.status === 400 && batch.length > 1) {
    // one operation that does not read refuses the batch: each is sent alone, so the
    // others land and only that one is refused
    for (const one of batch) { await sendBatch(army, [one]); }
    again[army] = records.some((r) => r.army === army);
    return;
  }
  attempts = 0;
  const results = answer && Array.isArray(answer.results) ? answer.results : null;
  if (!response.ok || !results) {
    const why = (answer && answer.error) || (response.status === 404
      ? "that army is no longer there" : "the server refused it (error " + response.status + ")");
    batch.forEach((r) => { r.refusal = why; });
    answered(batch);
    hooks.answered(army, batch, { results: batch.map((r) => ({ key: r.key, status: "refused", message: why })) });
    return;
  }
  const done = batch.filter((r) => results.some((res) => res.key === r.key));
  answered(done);
  hooks.answered(army, batch, answer);
  if (records.some((r) => r.army === army)) { again[army] = true; }
}

function answered(batch) {
  if (!batch.length) { return; }
  const keys = new Set(batch.map((r) => r.army + " " + r.key));
  records = records.filter((r) => !keys.has(r.army + " " + r.key));
  if (leaving) { kept = kept.concat(batch); } else { store.remove(batch); }
}

function retryLater() {
  clearTimeout(retryTimer);
  const delay = Math.min(30000, 1000 * Math.pow(2, attempts++));
  retryTimer = setTimeout(() => { if (navigator.onLine !== false) { sendAll(); } }, delay);
}

// -- leaving ---------------------------------------------------------------------------

/* The page starts to leave: from now on an answer deletes nothing (see the top). */
export function startLeaving() {
  leaving = true;
  clearTimeout(stayTimer);
  // still here long after: the leave was cancelled (the question answered "stay", a link
  // that turned out to be a download)
  stayTimer = setTimeout(stay, 10000);
}

export function stay() {
  if (!leaving) { return; }
  leaving = false;
  clearTimeout(stayTimer);
  store.remove(kept);
  kept = [];
}

/* The page goes away: what is not on its way yet goes with keepalive (it outlives the
 * page); it stays stored all the same, and the next page sends it again. */
export function sendOnLeaving() {
  if (navigator.onLine === false) { return; }
  const armies = new Set(records.filter((r) => !flying.has(r.key)).map((r) => r.army));
  armies.forEach((army) => {
    const batch = records.filter((r) => r.army === army && !flying.has(r.key)).slice(0, 50);
    try { post(batch[0].url, batch, true).catch(() => {}); } catch (e) { /* sent by the next page */ }
  });
}
