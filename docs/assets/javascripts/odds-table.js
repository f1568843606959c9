/* The odds page's table of games (build_scripts/odds_pages.py), sortable by any column: each
 * column header becomes a button; pressing it sorts by that column (again: the other way),
 * and aria-sort says which. Cells carry their value in data-sort. Without this script the
 * table keeps the build's order, by difficulty. Mounted on every page shown (Material's
 * instant navigation). */
(function () {
  "use strict";

  function value(row, i, type) {
    var cell = row.children[i];
    var v = cell ? cell.getAttribute("data-sort") : null;
    if (v === null || v === "") return null;
    return type === "number" ? parseFloat(v) : v;
  }

  function mount() {
    document.querySelectorAll("table.cadogan-odds-table[data-sortable]").forEach(function (table) {
      if (table.getAttribute("data-mounted")) return;
      table.setAttribute("data-mounted", "1");
      var heads = table.querySelectorAll("thead th");
      var body = table.tBodies[0];
      // The build's order breaks ties (and orders the rows without figures) whatever the
      // column sorted before.
      var built = new Map();
      Array.prototype.forEach.call(body.rows, function (r, k) { built.set(r, k); });
      heads.forEach(function (th, i) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "cadogan-sort";
        while (th.firstChild) button.appendChild(th.firstChild);
        th.appendChild(button);
        button.addEventListener("click", function () {
          var type = th.getAttribute("data-type") || "text";
          var dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
          var rows = Array.prototype.slice.call(body.rows);
          rows.sort(function (a, b) {
            var x = value(a, i, type), y = value(b, i, type);
            var tie = built.get(a) - built.get(b);
            if (x === null && y === null) return tie;
            if (x === null) return 1;   // rows without figures stay last either way
            if (y === null) return -1;
            var c = type === "number" ? x - y : String(x).localeCompare(String(y));
            return (dir === "ascending" ? c : -c) || tie;
          });
          rows.forEach(function (r) { body.appendChild(r); });
          heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
          th.setAttribute("aria-sort", dir);
        });
      });
    });
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(mount);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mount);
  } else {
    mount();
  }
})();
