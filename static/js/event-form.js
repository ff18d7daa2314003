/* The event form's allowed lists: a search box that narrows the ticked-box list to the
 * lists whose name holds what is typed, and only the chosen rule set's group shown. Without
 * this script every group's boxes are shown, and the server refuses a list of another rule
 * set by name; nothing here is needed for the form to work. */
(function () {
  "use strict";
  var choices = document.querySelector("[data-list-choices]");
  if (!choices) { return; }
  var ruleset = document.getElementById("id_ruleset");
  var legend = choices.querySelector("legend");

  var label = document.createElement("label");
  label.setAttribute("for", "list-search");
  label.textContent = "Find a list";
  var search = document.createElement("input");
  search.type = "search";
  search.id = "list-search";
  search.autocomplete = "off";
  var count = document.createElement("p");
  count.className = "help";
  count.setAttribute("role", "status");
  legend.insertAdjacentElement("afterend", label);
  label.insertAdjacentElement("afterend", search);
  search.insertAdjacentElement("afterend", count);

  function filter() {
    var words = search.value.trim().toLowerCase();
    var chosen = ruleset ? ruleset.value : "";
    var shown = 0;
    choices.querySelectorAll(".list-group").forEach(function (group) {
      var mine = !chosen || !group.dataset.ruleset || group.dataset.ruleset === chosen;
      var any = false;
      group.querySelectorAll(".list-choice").forEach(function (choice) {
        var box = choice.querySelector("input");
        var hit = mine && (box.checked || choice.textContent.toLowerCase().indexOf(words) !== -1);
        choice.hidden = !hit;
        if (hit) { any = true; shown += 1; }
      });
      group.hidden = !any;
    });
    count.textContent = shown === 1 ? "1 list revision shown" : shown + " list revisions shown";
  }

  search.addEventListener("input", filter);
  if (ruleset) { ruleset.addEventListener("change", filter); }
  filter();
})();
