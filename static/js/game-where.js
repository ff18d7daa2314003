/* Where a game stands and what it calls for, in the page's words.
 *
 * Whose player turn a turn is, in the page's words (games/game.html's #whose): where the
 * source's player turns are one-sided (rules.seats) the side that goes first (data-first)
 * plays the odd turns; data-turns-of names each side as an owner ("Normans'"). */
export function whoseTurn(dataset, turn) {
  const of = JSON.parse(dataset.turnsOf || "{}");
  const side = turn % 2 === 1 ? dataset.first : (dataset.first === "a" ? "b" : "a");
  return (of[side] || "") + " player turn";
}

/* A unit of a side lost on this phone: that side's force morale form opens (a roll is due
 * by the source; folded while none is). */
export function rollDue(root, key) {
  const form = root.querySelector('details.morale-side[data-side="' + String(key).split(":")[0] + '"]');
  if (form) { form.open = true; }
}
