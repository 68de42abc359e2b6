// clmeter dashboard: tables sort by a click on their header. The pages work
// without it; everything drawn is SVG from the server.
"use strict";
(function () {
  function cellValue(td) {
    var v = td.getAttribute("data-sort");
    if (v !== null) { return parseFloat(v); }
    return td.textContent.trim();
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("th").forEach(function (th, col) {
      th.addEventListener("click", function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var asc = th.getAttribute("data-dir") !== "asc";
        rows.sort(function (a, b) {
          var x = cellValue(a.cells[col]), y = cellValue(b.cells[col]);
          var r = (typeof x === "number" && typeof y === "number") ? x - y : String(x).localeCompare(String(y));
          return asc ? r : -r;
        });
        th.setAttribute("data-dir", asc ? "asc" : "desc");
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  document.body.setAttribute("data-ready", "1");
})();
