/* A problem the player must know of at once (a change refused, a request that needs the
 * connection), shown floating for a few seconds; one box for the whole page. */
let timer = null;

export function showProblem(message) {
  let box = document.getElementById("request-problem");
  if (!box) {
    box = document.createElement("div");
    box.id = "request-problem";
    box.className = "notice error floating";
    box.setAttribute("role", "alert");
    document.body.appendChild(box);
  }
  box.textContent = message;
  box.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { box.hidden = true; }, 6000);
}
