// Click a column header of a flat table (one header row, no merged index cells) to sort its rows;
// click again to reverse. Reads cell text only and moves existing rows: no markup is built.
(function () {
  "use strict";
  function sortKey(text) {
    var cleaned = text.replace(/[*+\s]/g, "").replace("\u2212", "-");
    var number = parseFloat(cleaned);
    return isNaN(number) || !/^-?[\d.]/.test(cleaned) ? null : number;
  }
  function compare(a, b) {
    var x = sortKey(a), y = sortKey(b);
    if (x !== null && y !== null) { return x - y; }
    if (x !== null) { return -1; }
    if (y !== null) { return 1; }
    return a.localeCompare(b);
  }
  function sortBy(table, column, header) {
    var body = table.tBodies[0];
    var descending = header.getAttribute("aria-sort") === "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r, s) {
      var order = compare(r.cells[column].textContent, s.cells[column].textContent);
      return descending ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) {
      cell.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }
  document.querySelectorAll("table[data-sortable]").forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (header, column) {
      header.classList.add("sortable");
      header.title = "Sort by this column";
      header.addEventListener("click", function () { sortBy(table, column, header); });
    });
  });
})();
