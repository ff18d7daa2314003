/* One-time keys of the page's operations (the builder's, the list editor's and the game's:
 * armybuilder/operations/keys.py is the server's one rule for them), the ids the builder gives the
 * units it adds (as the server makes them) and the game's dice seeds, all from the
 * browser's cryptographic random source (crypto.randomUUID is missing on plain http). */

const ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";  // as the server makes ids

function randomText(alphabet, length) {
  const bytes = new Uint8Array(length);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

export function onceKey() {
  return window.crypto.randomUUID ? window.crypto.randomUUID()
    : randomText("abcdefghijklmnopqrstuvwxyz0123456789", 32);
}

export function randomHex(bytes) {
  const values = new Uint8Array(bytes);
  window.crypto.getRandomValues(values);
  return Array.from(values, (v) => v.toString(16).padStart(2, "0")).join("");
}

export function newItemId() {
  return randomText(ID_ALPHABET, 8);
}
