/* Whose player turn a turn is, in the page's words (games/game.html's #whose): where the
 * source's player turns are one-sided (rules.seats) the side that goes first (data-first)
 * plays the odd turns; data-turns-of names each side as an owner ("Normans'"). */
export function whoseTurn(dataset, turn) {
  const of = JSON.parse(dataset.turnsOf || "{}");
  const side = turn % 2 === 1 ? dataset.first : (dataset.first === "a" ? "b" : "a");
  return (of[side] || "") + " player turn";
}
