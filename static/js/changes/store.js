/* The durable queue of unsent operations: IndexedDB through idb-keyval.
 *
 * One record per operation, keyed [army, operation key] (never by field: two changes of one
 * field are two operations). A record is the operation as POSTed plus what the page needs to
 * send and show it (`seq` for the order, `url`, `label`). A record leaves the store only once
 * the server answered for its key; IndexedDB survives reloads and closed tabs, and the
 * service worker can read the same database ("muster-changes", store "operations"). */
import { createStore, entries, promisifyRequest } from "../vendor/idb-keyval.js";

const DB = "muster-changes";
const STORE = "operations";
let store = null;

function opened() {
  if (!store) { store = createStore(DB, STORE); }
  return store;
}

// A write is committed at once (transaction.commit), not at the end of the task: a reload
// right after typing must find the operation here.
function write(fill) {
  return opened()("readwrite", (objects) => {
    fill(objects);
    if (objects.transaction.commit) { objects.transaction.commit(); }
    return promisifyRequest(objects.transaction);
  });
}

export function keyOf(record) {
  return [record.army, record.key];
}

export function put(record) {
  return write((objects) => objects.put(record, keyOf(record))).catch(() => {});
}

export function remove(records) {
  if (!records.length) { return Promise.resolve(); }
  return write((objects) => records.forEach((r) => objects.delete(keyOf(r)))).catch(() => {});
}

/* Every stored operation, oldest first (of every army: a page sends them all). */
export function all() {
  return entries(opened())
    .then((pairs) => pairs.map((pair) => pair[1]).filter((r) => r && r.key)
      .sort((a, b) => a.seq - b.seq))
    .catch(() => []);
}

/* Opens the database now, so the first change's write starts in the event that made it. */
export function warm() {
  return opened()("readonly", (objects) => promisifyRequest(objects.count())).catch(() => 0);
}

/* Open conflicts (a field changed elsewhere while this device's value waited) are kept in
 * the same store, keyed [army, "conflict <target> <field>"], so a reload before the player
 * chose still offers the choice. They carry no operation `key`, so all() leaves them out. */
function conflictKey(army, target, field) {
  return [army, "conflict " + target + " " + field];
}

export function putConflict(army, target, field, theirs, mine) {
  const record = { army: army, conflict: true, target: target, field: field, theirs: theirs, mine: mine };
  return write((objects) => objects.put(record, conflictKey(army, target, field))).catch(() => {});
}

export function dropConflict(army, target, field) {
  return write((objects) => objects.delete(conflictKey(army, target, field))).catch(() => {});
}

export function conflicts(army) {
  return entries(opened())
    .then((pairs) => pairs.map((pair) => pair[1]).filter((r) => r && r.conflict && r.army === army))
    .catch(() => []);
}
