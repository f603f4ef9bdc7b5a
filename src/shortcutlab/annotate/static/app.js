// The annotation page: every state comes from the server, so a reload or a restarted server
// resumes at the first unanswered item. Texts from data reach the DOM only as text nodes.
(function () {
  "use strict";

  var token = new URLSearchParams(window.location.search).get("token") || "";
  var NAME_KEY = "shortcutlab-annotator";
  var state = { annotator: null, form: null, view: null, fieldIndex: 0, answer: {}, busy: false };

  function byId(id) { return document.getElementById(id); }

  function element(tag, className) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    return made;
  }

  function setStatus(text, isError) {
    var status = byId("status");
    status.textContent = text;
    status.classList.toggle("error", Boolean(isError));
  }

  function api(path, body) {
    var options = { headers: { "X-Token": token }, cache: "no-store" };
    if (body !== undefined) {
      options.method = "POST";
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) { throw new Error(data.error || "the server answered " + response.status); }
        return data;
      });
    });
  }

  // Spans are [start, end) offsets in code points (Python's str indexing), so slice code points.
  function appendWithSpans(target, text, spans) {
    var characters = Array.from(text);
    var valid = (Array.isArray(spans) ? spans : []).filter(function (span) {
      return Array.isArray(span) && Number.isInteger(span[0]) && Number.isInteger(span[1]) &&
        span[0] >= 0 && span[0] < span[1] && span[1] <= characters.length;
    }).sort(function (a, b) { return a[0] - b[0]; });
    var at = 0;
    valid.forEach(function (span) {
      if (span[0] < at) { return; }  // overlapping spans: the first one wins
      target.appendChild(document.createTextNode(characters.slice(at, span[0]).join("")));
      var mark = element("mark", "span");
      mark.textContent = characters.slice(span[0], span[1]).join("");
      target.appendChild(mark);
      at = span[1];
    });
    target.appendChild(document.createTextNode(characters.slice(at).join("")));
  }

  function spansFor(payload, key) {
    if (Array.isArray(payload[key + "_spans"])) { return payload[key + "_spans"]; }
    var shared = payload.spans;
    return shared && typeof shared === "object" && Array.isArray(shared[key]) ? shared[key] : [];
  }

  // A list entry: a string, or {text, spans} (a text with its marked spans).
  function listEntry(entry) {
    var line = element("li", "payload-text");
    if (typeof entry === "string") {
      line.textContent = entry;
    } else if (entry && typeof entry === "object" && typeof entry.text === "string") {
      appendWithSpans(line, entry.text, entry.spans);
    } else {
      line.textContent = JSON.stringify(entry);
    }
    return line;
  }

  // A mapping of names to figures: a two-column table, name then value.
  function figureTable(figures) {
    var table = element("table", "payload-figures");
    Object.keys(figures).forEach(function (name) {
      var row = element("tr");
      var head = element("th");
      head.scope = "row";
      head.textContent = name;
      var cell = element("td");
      var value = figures[name];
      cell.textContent = typeof value === "string" ? value : JSON.stringify(value);
      row.append(head, cell);
      table.appendChild(row);
    });
    return table;
  }

  function renderPayload(payload) {
    var box = byId("payload");
    box.replaceChildren();
    Object.keys(payload).forEach(function (key) {
      if (key === "spans" || /_spans$/.test(key)) { return; }
      var value = payload[key];
      var part = element("div", "payload-part");
      part.dataset.key = key;
      var heading = element("h2");
      heading.textContent = key.replace(/_/g, " ");
      var body;
      if (typeof value === "string") {
        body = element("p", "payload-text");
        appendWithSpans(body, value, spansFor(payload, key));
      } else if (Array.isArray(value)) {
        body = element("ul", "payload-list");
        value.forEach(function (entry) { body.appendChild(listEntry(entry)); });
      } else if (value && typeof value === "object") {
        body = figureTable(value);
      } else {
        body = element("p", "payload-text");
        body.textContent = JSON.stringify(value);
      }
      part.append(heading, body);
      box.appendChild(part);
    });
  }

  function renderFields() {
    var box = byId("fields");
    box.replaceChildren();
    state.form.fields.forEach(function (field, index) {
      var block = element("div", "field" + (index === state.fieldIndex ? " current" : ""));
      block.dataset.field = field.name;
      var prompt = element("p", "prompt");
      prompt.textContent = field.prompt;
      block.appendChild(prompt);
      field.choices.forEach(function (choice) {
        var button = element("button", "choice");
        button.type = "button";
        button.dataset.field = field.name;
        button.dataset.value = choice.value;
        button.dataset.key = choice.key;
        button.setAttribute("aria-pressed", String(state.answer[field.name] === choice.value));
        button.setAttribute("aria-keyshortcuts", choice.key);
        // The key sits in its own cap, apart from the label: "1" then "0" must not read as "10".
        var key = element("kbd", "key");
        key.textContent = choice.key;
        key.title = "key " + choice.key;
        var text = element("span", "choice-text");
        text.textContent = choice.text;
        button.append(key, text);
        button.addEventListener("click", function () { choose(index, choice.value); });
        block.appendChild(button);
      });
      box.appendChild(block);
    });
  }

  function show(view) {
    state.view = view;
    byId("progress").textContent = view.answered + " / " + view.total;
    byId("done").hidden = !view.done;
    byId("item").hidden = Boolean(view.done);
    if (view.done) { byId("item").removeAttribute("data-item-id"); return; }
    state.answer = Object.assign({}, view.answer);
    state.fieldIndex = 0;
    byId("item").dataset.itemId = view.item_id;
    byId("item").dataset.position = String(view.position);
    renderPayload(view.payload);
    renderFields();
  }

  function complete() {
    return state.form.fields.every(function (field) { return field.name in state.answer; });
  }

  // The start of an item's first text, whitespace collapsed, cut at a word near `limit` characters.
  function shortText(payload, limit) {
    var key = Object.keys(payload).find(function (name) { return typeof payload[name] === "string"; });
    var text = key === undefined ? "" : payload[key].replace(/\s+/g, " ").trim();
    var characters = Array.from(text);
    if (characters.length <= limit) { return text; }
    var cut = characters.slice(0, limit).join("");
    var space = cut.lastIndexOf(" ");
    return (space > limit / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "") + "…";
  }

  // What the person chose, as the buttons said it: "label 0", or "fluency 4, meaning 5".
  function chosenTexts(answer) {
    var fields = state.form.fields.filter(function (field) { return field.name in answer; });
    return fields.map(function (field) {
      var choice = field.choices.find(function (c) { return c.value === answer[field.name]; });
      var text = choice ? choice.text : answer[field.name];
      return fields.length > 1 ? field.name.replace(/_/g, " ") + " " + text : text;
    }).join(", ");
  }

  function submit() {
    if (state.busy) { return; }
    state.busy = true;
    setStatus("Saving…");
    var saved = { text: shortText(state.view.payload, 60), answer: Object.assign({}, state.answer) };
    var body = { annotator: state.annotator, item_id: state.view.item_id, answer: state.answer };
    api("/api/answer", body).then(function (data) {
      setStatus("Saved \u201c" + saved.text + "\u201d as " + chosenTexts(saved.answer) + ".");
      show(data.next);
    }).catch(function (error) {
      setStatus("Not saved: " + error.message + ". Press Enter to try again.", true);
    }).finally(function () { state.busy = false; });
  }

  // A choice answers its field and moves to the next; answering the last field saves the item.
  function choose(index, value) {
    if (state.busy || !state.view || state.view.done) { return; }
    var fields = state.form.fields;
    state.answer[fields[index].name] = value;
    state.fieldIndex = Math.min(index + 1, fields.length - 1);
    renderFields();
    if (index === fields.length - 1 && complete()) { submit(); }
  }

  function goBack() {
    if (state.busy || !state.view) { return; }
    var position = state.view.done ? state.view.total - 1 : state.view.position - 1;
    if (position < 0) { return; }
    state.busy = true;
    var query = "?annotator=" + encodeURIComponent(state.annotator) + "&position=" + position;
    api("/api/item" + query).then(function (view) {
      setStatus("Back to item " + (position + 1) + ": a new answer replaces the earlier one.");
      show(view);
    }).catch(function (error) { setStatus(error.message, true); })
      .finally(function () { state.busy = false; });
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || !state.view) { return; }
    if (event.target && event.target.tagName === "INPUT") { return; }
    if (event.key === "Backspace") { event.preventDefault(); goBack(); return; }
    if (state.view.done) { return; }
    if (event.key === "Enter") {
      event.preventDefault();
      if (complete()) { submit(); }
      return;
    }
    // The key printed on a button of the current question answers with that button's label.
    var pressed = event.key.toLowerCase();
    var buttons = document.querySelectorAll("#fields .field.current button.choice");
    var button = Array.prototype.find.call(buttons, function (b) {
      return b.dataset.key.toLowerCase() === pressed;
    });
    if (button) { event.preventDefault(); choose(state.fieldIndex, button.dataset.value); }
  }

  function start(name) {
    state.annotator = name;
    window.localStorage.setItem(NAME_KEY, name);
    byId("annotator").blur();  // the keys answer questions now, not the name field
    byId("name-form").hidden = true;
    byId("who-name").textContent = name;
    document.querySelector(".who").hidden = false;
    api("/api/task").then(function (task) {
      state.form = task.form;
      return api("/api/next?annotator=" + encodeURIComponent(name));
    }).then(show).catch(function (error) {
      setStatus(error.message, true);
      askName(name);
    });
  }

  function askName(current) {
    state.view = null;
    byId("item").hidden = true;
    byId("done").hidden = true;
    byId("name-form").hidden = false;
    byId("annotator").value = current || "";
    byId("annotator").focus();
  }

  byId("name-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var name = byId("annotator").value.trim();
    if (name) { setStatus(""); start(name); }
  });
  byId("change-name").addEventListener("click", function () { askName(state.annotator); });
  document.addEventListener("keydown", onKey);

  var remembered = window.localStorage.getItem(NAME_KEY);
  if (remembered) { start(remembered); } else { askName(""); }
})();
