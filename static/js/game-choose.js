/* Choosing a combat offline, from the game's offers kept on the phone (GET .../offers.json,
 * asked once a game): the same choice the server's forms offer for the pair and phase
 * (the modifiers that apply, a die to type or none to roll), drawn by the page as a form
 * game-ops.js queues when it is sent. */
import * as exact from "./game-engine.js";

const OFFERS = "muster-offers-";

function game() { return document.getElementById("game"); }
function data() { return game().dataset; }
function online() { return navigator.onLine !== false; }

export function field(form, name) {
  const input = form.querySelector('[name="' + name + '"]');
  return input ? input.value.trim() : "";
}

export function offers() {
  try { return JSON.parse(localStorage.getItem(OFFERS + data().game) || "null"); } catch (e) { return null; }
}

export function keepOffers() {
  if (!data().offersUrl || (offers() && offers().table) || !online()) { return; }
  fetch(data().offersUrl, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null))
    .then((found) => {
      if (!found) { return; }
      try { localStorage.setItem(OFFERS + data().game, JSON.stringify(found)); } catch (e) { /* chosen online only */ }
    })
    .catch(() => {});
}

function element(tag, attributes, text) {
  const made = document.createElement(tag);
  Object.entries(attributes || {}).forEach(([name, value]) => made.setAttribute(name, value));
  if (text) { made.textContent = text; }
  return made;
}

/* Draws the offline choice for the pair `pair` names, in the phase `now` stands in
 * (`nameOf`: a unit's name, as its card says). */
export function chooseOffline(pair, now, nameOf) {
  const attacker = field(pair, "attacker");
  const target = field(pair, "target");
  if (!attacker || !target) { return; }
  let drawn = document.getElementById("combat-offline");
  if (drawn) { drawn.remove(); }
  drawn = element("div", { id: "combat-offline" });
  const known = offers();
  const at = known && known.phases[now.phase] ? known.phases[now.phase][attacker] : undefined;
  if (attacker.split(":")[0] === target.split(":")[0]) {
    drawn.appendChild(element("p", { class: "game-error", role: "alert" }, nameOf(attacker) + " and " + nameOf(target) + " are on the same side."));
  } else if (typeof at === "string") {
    drawn.appendChild(element("p", { class: "game-error", role: "alert" }, at));
  } else {
    const form = element("form", { method: "post", action: "#combat", "data-op": "work_out", "data-offline": "" });
    form.append(element("input", { type: "hidden", name: "attacker", value: attacker }),
      element("input", { type: "hidden", name: "target", value: target }));
    const fields = element("fieldset");
    fields.appendChild(element("legend", {}, "Modifiers that apply"));
    const set = at === undefined ? null : known.sets[typeof at === "number" ? at : at[target]];
    if (!set) {
      fields.appendChild(element("p", {}, "Offline, and this phone does not know this pair's modifiers: the server applies those that follow from the units when it is sent."));
    } else if (!set.length) {
      fields.appendChild(element("p", {}, "None for this pair in this phase."));
    }
    (set || []).forEach((m) => {
      const label = element("label");
      const box = element("input", { type: "checkbox", name: "modifier", value: m.key });
      if (m.automatic) { box.checked = true; box.disabled = true; }
      label.append(box, " " + m.label + (m.automatic ? " (applies by itself)" : "") + (m.group ? " (one " + m.group + " modifier)" : "") + " ");
      label.appendChild(element("cite", {}, m.section));
      const row = element("p");
      row.appendChild(label);
      fields.appendChild(row);
    });
    const die = element("p");
    die.append(element("label", { for: "die-offline" }, "Die (leave empty to roll)"), " ",
      element("input", { type: "text", id: "die-offline", name: "die", inputmode: "numeric", autocomplete: "off", size: "8" }));
    const numbers = element("p");
    numbers.append(element("label", { for: "numbers-offline" }, "Other numbers, if the rules ask (e.g. figures=12)"), " ",
      element("input", { type: "text", id: "numbers-offline", name: "numbers", autocomplete: "off", size: "16" }));
    form.append(fields, die, numbers, element("button", { type: "submit" }, "Apply when sent"));
    drawn.append(element("p", { class: "hint" }, exact.working() && known && known.table
      ? "Offline: the hits are worked out on this phone at once, and by the server when sent."
      : "Offline: the hits are worked out by the rules when this phone sends it."), form);
  }
  const old = game().querySelector('#combat form[data-op="work_out"]:not([data-offline])');
  if (old) { old.hidden = true; }
  pair.after(drawn);
}

/* The keep-or-pass buttons for `winner` (a side) after an Initiative roll worked out on
 * this phone, while the server's drawing has none: the server's own form for that winner
 * (a <template> in #initiative, drawn only where this page may choose for it), so a tap
 * is queued as the server-drawn one is. `marked`: the layer's mark, so it goes when lifted. */
export function drawChoice(winner, marked) {
  if (!winner || document.getElementById("keep-or-pass")) { return; }
  const kept = game().querySelector('#initiative template[data-keep-or-pass="' + CSS.escape(winner) + '"]');
  const drawn = kept && kept.content.querySelector("#keep-or-pass");
  if (drawn) { document.getElementById("initiative").after(marked(drawn.cloneNode(true))); }
}
