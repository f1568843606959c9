/* The home page's list of games, filtered by the number of packs (build_scripts/illustrations.py
 * writes the control, hidden, and a data-packs attribute on each game) and by how often the
 * game comes out (build_scripts/odds_pages.py adds those choices and a data-odds attribute:
 * often, sometimes, seldom or unknown); a game is shown when it meets both. Without this
 * script the control stays hidden and every game is listed. Mounted on every page shown, so
 * it works under Material's instant navigation too. */
(function () {
  "use strict";

  function mount() {
    var form = document.querySelector("form.chapter-filter");
    var list = document.querySelector("ul.chapter-list");
    if (!form || !list || form.getAttribute("data-mounted")) return;
    form.setAttribute("data-mounted", "1");
    var count = form.querySelector(".chapter-filter__count");
    var entries = list.querySelectorAll("li.chapter-entry");
    function apply() {
      var chosen = form.querySelector("input[name=chapter-packs]:checked");
      var packs = chosen ? chosen.value : "all";
      var chosenOdds = form.querySelector("input[name=chapter-odds]:checked");
      var odds = chosenOdds ? chosenOdds.value : "any";
      var shown = 0;
      entries.forEach(function (li) {
        var keep = (packs === "all" || li.getAttribute("data-packs") === packs) &&
          (odds === "any" || li.getAttribute("data-odds") === odds);
        li.hidden = !keep;
        if (keep) shown += 1;
      });
      count.textContent = "Showing " + shown + " of " + entries.length +
        (entries.length === 1 ? " game." : " games.");
    }
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    form.hidden = false;
    apply();
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(mount);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mount);
  } else {
    mount();
  }
})();
