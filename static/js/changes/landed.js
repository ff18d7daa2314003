/* What the page does once actions landed: a unit just added (or duplicated) is drawn open
 * with its name field focused, and, while the server's answer brings no out-of-band html
 * (the toast among it), the "Undo" toast of a delete or a roll is drawn here from the
 * redrawn page's Undo target (the change it shows last). */

const TOASTED = { delete: (label) => label.replace(/^Delete\b/, "Deleted"), roll: () => "Rolled a force" };

/* A rolled force: its units are shown (the roll button sits above them). */
export function showRolled(batch, results) {
  const rolled = batch.some((sent) => sent.op === "roll" && results.some((r) => r.key === sent.key && r.status === "applied"));
  const first = rolled ? document.querySelector("#unit-list > li.item") : null;
  if (first) { first.scrollIntoView({ block: "nearest" }); }
}

// When the player last opened a card by hand (ms): an add answered later (a slow link)
// does not close the card they went on to, one card of the list being open at a time.
let openedByHand = { at: 0, card: "" };
document.addEventListener("click", (event) => {
  const summary = event.target.closest ? event.target.closest("li.item > details > summary") : null;
  if (summary) { openedByHand = { at: Date.now(), card: summary.closest("li.item").id }; }
}, true);

function movedOn(batch, cardId) {
  const made = batch.filter((sent) => sent.op === "add" || sent.op === "duplicate").map((sent) => sent.seq || 0);
  // a record's seq is the time it was made, in µs (queue.nextSeq)
  return made.length > 0 && openedByHand.at * 1000 > Math.min(...made) && openedByHand.card !== cardId;
}

/* The cards an answer puts in place (`parts`: its out-of-band html, not yet swapped) come
 * closed when the player opened another card since the add was made. */
export function keepTheirCard(parts, batch) {
  parts.querySelectorAll("li.item > details[open]").forEach((details) => {
    if (!movedOn(batch, details.parentNode.id)) { return; }
    details.removeAttribute("open");
    details.removeAttribute("data-open");
  });
}

export function openAdded(batch, results) {
  const added = batch.filter((sent) => (sent.op === "add" || sent.op === "duplicate") && sent.value && sent.value.id
    && results.some((r) => r.key === sent.key && r.status === "applied"));
  const last = added[added.length - 1];
  if (!last) { return; }
  const card = document.getElementById("unit-" + last.value.id) || document.getElementById("general-" + last.value.id);
  if (movedOn([last], card ? card.id : "")) { return; }
  const details = card ? card.querySelector("details") : null;
  if (!details) { return; }
  details.open = true;
  const name = card.querySelector("input[name='f.name']");
  if (name && !document.activeElement.closest("[data-field]")) { name.focus({ preventScroll: false }); }
}

export function drawToast(batch, results) {
  const toast = document.getElementById("toast");
  const builder = document.getElementById("builder");
  const target = document.getElementById("undo-revision");
  const token = document.querySelector("input[name=csrfmiddlewaretoken]");
  const done = batch.filter((sent) => TOASTED[sent.op] && results.some((r) => r.key === sent.key && r.status === "applied"));
  const last = done[done.length - 1];
  if (!toast || !builder || !target || !target.value || !last) { return; }
  const box = document.createElement("div");
  box.className = "toast-box";
  const summary = document.createElement("span");
  summary.textContent = TOASTED[last.op](last.label || "");
  const form = document.createElement("form");
  form.method = "post";
  form.action = builder.dataset.undoUrl;
  form.setAttribute("hx-post", builder.dataset.undoUrl);
  form.setAttribute("hx-target", "#builder");
  form.setAttribute("hx-swap", "outerHTML");
  const csrf = document.createElement("input");
  csrf.type = "hidden";
  csrf.name = "csrfmiddlewaretoken";
  csrf.value = token ? token.value : "";
  const revision = document.createElement("input");
  revision.type = "hidden";
  revision.name = "revision";
  revision.value = target.value;
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "toast-undo";
  button.textContent = "Undo";
  form.append(csrf, revision, button);
  box.append(summary, form);
  toast.replaceChildren(box);
  if (window.htmx) { window.htmx.process(toast); }
}
