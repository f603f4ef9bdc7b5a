// The row explorer (templates/blocks/row_explorer.html.j2): pick a cell, filter its changed
// pairs by text / row id / label, by kind of change and by group (where the rows have groups),
// sort by a column, the cue marked.
// Data come from the block's JSON script tag; every text reaches the page through textContent.
(function () {
  "use strict";

  const NUMERIC = { row_id: true, test_confidence: true, anti_confidence: true };

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The text with each [start, end) span wrapped in <mark class="cue">, built from slices.
  // Spans are Python str offsets (code points) while JS strings count UTF-16 units, so an emoji
  // before a cue would shift it: slice the code points.
  function markedText(text, spans) {
    const cell = element("td", "explorer-text");
    const characters = Array.from(text);
    const piece = (from, to) => characters.slice(from, to).join("");
    let at = 0;
    for (const span of spans) {
      if (span.start < at || span.end > characters.length || span.start >= span.end) continue;
      if (span.start > at) cell.appendChild(document.createTextNode(piece(at, span.start)));
      cell.appendChild(element("mark", "cue", piece(span.start, span.end)));
      at = span.end;
    }
    if (at < characters.length) cell.appendChild(document.createTextNode(piece(at)));
    return cell;
  }

  function confidence(value) {
    return value === null ? "—" : value.toFixed(3);
  }

  function compare(key, a, b) {
    const x = a[key];
    const y = b[key];
    if (NUMERIC[key]) {
      const u = x === null ? Infinity : Number(x);
      const v = y === null ? Infinity : Number(y);
      if (!Number.isNaN(u) && !Number.isNaN(v)) return u === v ? 0 : u < v ? -1 : 1;
    }
    return String(x).localeCompare(String(y), undefined, { numeric: true });
  }

  function matches(row, needle) {
    if (!needle) return true;
    return [row.row_id, row.label, row.group, row.test_prediction, row.anti_prediction, row.test_text, row.anti_text]
      .some((value) => value.toLowerCase().includes(needle));
  }

  function tableRow(row, grouped) {
    const tr = element("tr", "explorer-row change-" + row.change);
    tr.dataset.rowId = row.row_id;
    tr.appendChild(element("td", "explorer-id", row.row_id));
    tr.appendChild(element("td", "explorer-label", row.label));
    tr.appendChild(element("td", "explorer-change-kind", row.change));
    if (grouped) tr.appendChild(element("td", "explorer-group-name", row.group));
    tr.appendChild(markedText(row.test_text, row.test_spans));
    tr.appendChild(element("td", "explorer-prediction", row.test_prediction));
    tr.appendChild(element("td", "explorer-confidence", confidence(row.test_confidence)));
    tr.appendChild(markedText(row.anti_text, row.anti_spans));
    tr.appendChild(element("td", "explorer-prediction", row.anti_prediction));
    tr.appendChild(element("td", "explorer-confidence", confidence(row.anti_confidence)));
    return tr;
  }

  function emptyMessage(cell) {
    if (cell.rows.length) return "No pair matches the filters.";
    if (cell.omitted) return "This cell's changed pairs did not fit in the page budget.";
    return "No pair of this cell changed its prediction.";
  }

  function setUp(container) {
    const data = JSON.parse(container.querySelector("script.explorer-data").textContent);
    const picker = container.querySelector("select.explorer-cell");
    const filter = container.querySelector("input.explorer-filter");
    const changeKind = container.querySelector("select.explorer-change");
    const group = container.querySelector("select.explorer-group"); // null: the rows have none
    const headers = Array.from(container.querySelectorAll("th[data-sort]"));
    const headerCount = container.querySelectorAll("thead th").length;
    const order = { key: null, descending: false };

    function draw() {
      const cell = data.cells[Number(picker.value)] || data.cells[0];
      if (!cell) return;
      const needle = filter.value.trim().toLowerCase();
      const wanted = changeKind.value;
      const wantedGroup = group ? group.value : "";
      const shown = cell.rows
        .map((row, index) => ({ row: row, index: index }))
        .filter(
          (item) =>
            (!wanted || item.row.change === wanted) &&
            (!wantedGroup || item.row.group === wantedGroup) &&
            matches(item.row, needle),
        );
      if (order.key) {
        const sign = order.descending ? -1 : 1;
        shown.sort((a, b) => sign * compare(order.key, a.row, b.row) || a.index - b.index);
      }
      const body = container.querySelector("tbody");
      body.replaceChildren(...shown.map((item) => tableRow(item.row, group !== null)));
      if (!shown.length) {
        const empty = element("td", "", emptyMessage(cell));
        empty.colSpan = headerCount;
        body.appendChild(element("tr", "explorer-empty")).appendChild(empty);
      }

      container.querySelector(".explorer-cell-title").textContent = cell.title;
      const facts = container.querySelector(".explorer-facts");
      facts.replaceChildren();
      for (const [name, value] of cell.facts) {
        facts.appendChild(element("dt", "", name));
        facts.appendChild(element("dd", "", value));
      }
      container.querySelector(".explorer-omitted").textContent = cell.omitted
        ? cell.omitted + " more changed pairs of this cell are left out of the page (page budget)."
        : "";
      container.querySelector(".explorer-count").textContent =
        "showing " + shown.length + " of " + cell.rows.length;
    }

    for (const header of headers) {
      header.addEventListener("click", function () {
        const key = header.dataset.sort;
        order.descending = order.key === key ? !order.descending : false;
        order.key = key;
        for (const other of headers) other.setAttribute("aria-sort", "none");
        header.setAttribute("aria-sort", order.descending ? "descending" : "ascending");
        draw();
      });
    }
    picker.addEventListener("change", draw);
    filter.addEventListener("input", draw);
    changeKind.addEventListener("change", draw);
    if (group) group.addEventListener("change", draw);
    draw();
  }

  function start() {
    document.querySelectorAll("div.explorer").forEach(setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
