// A table: draws the view the server sends, sends the actions clicked, runs the bots on a timer,
// and follows the table's events so that a move made elsewhere (another seat's page) shows at once.
"use strict";

let view = JSON.parse(document.getElementById("initial").textContent);
let seat = new URLSearchParams(window.location.search).get("seat");
let playing = view.mode === "watch";
let timer = null;
let source = null;
let halted = null;  // the version of the table at which the server refused a bot's move: the bots wait there
let scrubbed = null;  // a replay: the position the slider's thumb was moved to, while the table is on its way there
let scrubbing = false;  // a replay: the slider's call is not answered yet
let picked = null;  // the last click on the table that found several actions: {label, test}, listed as the filter
// Where the keyboard was when it played a move: focus goes back there (else to the filter) once the page offers
// actions again, after the bots' replies (the actions list and the board are drawn anew, and the filter hidden
// while the bots move, so that the focus fell back to the page's start, a long way from the next move).
let refocus = null;
const base = `/api/tables/${view.id}`;

function showMessage(text) {
  const box = document.getElementById("message");
  box.textContent = text || "";
  box.hidden = !text;
}

function build(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// A run of log lines, each a block of its own: a line holding line breaks (a game over's ranking, a place a line)
// reads as one entry, its later lines indented under its first (they read as entries of their own, level with it).
function logLines(lines) {
  const block = build("div", undefined, "lines");
  block.append(...lines.map((line) => build("div", line)));
  return block;
}

// The heading of a turn in the log: "turn 3: seat 2 (ROLE)", whose it was, a turn that asked nobody too.
function heading(turn) {
  return turn.whose ? `turn ${turn.number}: ${turn.whose}` : `turn ${turn.number}`;
}

let queue = Promise.resolve();  // the calls not answered yet, in the order they were made
let waiting = 0;
let slow = null;  // the timer that marks the page as waiting long (a searching bot), so that it says so
let ticking = null;  // while the page waits long: the timer counting the seconds on the page, so that it shows progress

// Calls reach the server one after another, in the order they were made: two quick clicks are two steps, and an
// answer never draws over a later one.  `body` may be a function, read when the call is sent, so that a step is
// taken from where the call before it left the table.  The page is busy until the last call is answered.
function call(path, body, quiet) {
  waiting += 1;
  document.body.dataset.busy = "true";
  clearTimeout(slow);
  const asked = Date.now();
  slow = setTimeout(() => {
    document.body.dataset.slow = String(waiting > 0);
    if (waiting > 0) showWaiting(asked);
  }, 600);
  const sent = queue.then(() => send(path, typeof body === "function" ? body() : body, quiet));
  queue = sent.catch(() => null);  // one failed call does not stop the ones after it
  return sent.finally(() => {
    waiting -= 1;
    if (waiting === 0) {
      document.body.dataset.busy = "false";
      document.body.dataset.slow = "false";
      showWaiting(null);
    }
  });
}

// "waiting for the server… 3 s" under the situation, counting the seconds since the call `since` was made (a bot
// that searches for seconds: the count shows the page is not stuck); null: hidden.
function showWaiting(since) {
  const line = document.getElementById("waiting");
  clearInterval(ticking);
  line.hidden = since === null;
  if (since === null) return;
  const tell = () => {
    const seconds = Math.floor((Date.now() - since) / 1000);
    line.textContent = `waiting for the server…${seconds ? ` ${seconds} s` : ""}`;
  };
  tell();
  ticking = setInterval(tell, 1000);
}

async function send(path, body, quiet) {
  const query = seat ? `?seat=${seat}` : "";
  try {
    const response = await fetch(base + path + query, body === undefined ? {} : {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await response.json();
    if (data.error) {
      if (path === "/advance") {  // the ruleset failed on the bot's move, or it took too long: asking again fails again
        halted = view.version;
        playing = false;  // watching: paused, so that play asks again
        showMessage(`${data.error}\nThe bots stop here: ${view.mode === "watch" ? "press play or step" : "undo, or reload the page"} to try again.`);
      } else showMessage(data.error);
      if (body !== undefined) call("", undefined, true);  // the table may have moved on meanwhile: draw it as it is
      return null;
    }
    if (!quiet) showMessage(data.note || "");
    draw(data);
    return data;
  } catch (err) {
    showMessage(`the server did not answer (${err})`);
    return null;
  }
}

// The actions the filter box names, as `rulecraft play` lists them (CellNames.lists): when it holds one cell as a
// whole, those played at that cell ("1,1": not those at -1,1 or 11,1; "a1": not those at a10; "01,1" is 1,1), else
// those whose text contains it.
// A click on the table that found several actions is listed as it found them (the actions lit where it clicked), while
// the filter shows what was clicked: a point lit by its name (a road named after the two towns it joins lights both
// towns) lists its actions though none of them names its cell's x,y.
function matching() {
  const typed = document.getElementById("filter").value;
  if (picked && typed === picked.label) return view.actions.filter(picked.test);
  const filter = typed.trim().toLowerCase();
  if (!filter) return view.actions;
  if (new RegExp(`^(?:${view.typed_cell})$`).test(filter)) {
    const cell = filter.replace(/(?<!\d)0+(?=\d)/g, "");  // 01,1 is 1,1
    return view.actions.filter((a) => a.cell_words.includes(cell));
  }
  return view.actions.filter((a) => a.text.toLowerCase().includes(filter));
}

let listedFor = null;  // the table's version and the filter the actions were last listed for

// The actions, as the filter names them; a new list (the table moved on, the filter changed) starts at its top: it
// stayed scrolled where the last move was picked, its first actions out of sight.
function drawActions() {
  const list = document.getElementById("actions");
  const listing = `${view.version}\n${document.getElementById("filter").value}`;
  const kept = listing === listedFor ? list.scrollTop : 0;
  listedFor = listing;
  list.replaceChildren();
  for (const action of matching()) {
    const item = build("li");
    const button = build("button", action.text);
    button.type = "button";
    button.className = "action";
    if (action.glyph) {  // the tile it plays, drawn as the action turns it; on the board too while pointed at
      button.insertAdjacentHTML("afterbegin", action.glyph);
      for (const shown of ["mouseenter", "focus"]) button.addEventListener(shown, () => preview(action));
      for (const gone of ["mouseleave", "blur"]) button.addEventListener(gone, () => preview(null));
    }
    button.addEventListener("click", (event) => {
      if (event.detail === 0) refocus = "#filter";  // pressed from the keyboard, not clicked
      act(action.text);
    });
    item.append(button);
    list.append(item);
  }
  list.scrollTop = kept;
  const filter = document.getElementById("filter");
  filter.hidden = view.actions.length === 0;
  if (refocus && view.over) {  // the move ended the game: the focus goes to who won (it fell to the page's start)
    const active = document.activeElement;
    if (!active || active === document.body) document.getElementById("situation").focus();
    refocus = null;
  }
  if (refocus && view.actions.length) {
    const active = document.activeElement;
    if (!active || active === document.body) {  // the focus was lost with what was drawn anew, not moved on
      const there = document.querySelector(refocus);
      (there && !there.matches(".cell:not(.playable)") ? there : filter).focus();
    }
    refocus = null;
  }
}

// The tile an action plays drawn on the cells it names, as it would lie there (null: none), while the pointer or the
// keyboard is on the action in the list: which way a tile's turn leaves its sides is seen on the board itself.
function preview(action) {
  for (const old of document.querySelectorAll("#view svg.preview")) old.remove();
  for (const name of action ? action.cells : []) {
    const cell = document.querySelector(`#view .cell[data-cell="${CSS.escape(name)}"]`);
    const shape = cell?.querySelector(".square, .hexagon, .point");
    if (!shape) continue;
    const box = shape.getBBox();
    const holder = document.createElementNS("http://www.w3.org/2000/svg", "g");
    holder.innerHTML = action.glyph;
    const glyph = holder.firstElementChild;
    for (const [key, value] of Object.entries({ x: box.x, y: box.y, width: box.width, height: box.height })) {
      glyph.setAttribute(key, value);
    }
    glyph.setAttribute("class", "preview");
    cell.append(glyph);
  }
}

function drawLog() {
  const log = document.getElementById("log");
  const reading = log.scrollTop + log.clientHeight < log.scrollHeight - 4;  // scrolled up to an earlier move
  const kept = log.scrollTop;
  // what ran before the first move (a choice of one option taken without asking), above the moves
  const opening = document.getElementById("opening");
  opening.hidden = !view.opening.length;
  // a turn begun at the start's end, with no line yet, is headed by nothing: its heading, last in the box, read as the
  // heading of whatever the scrolled log below it shows first
  const cuts = view.opening_turns.filter((turn, i, all) => turn.at < (i + 1 < all.length ? all[i + 1].at : view.opening.length));
  const first = cuts.length ? cuts[0].at : view.opening.length;  // the setup's lines, before the first turn's heading
  opening.replaceChildren();
  if (first) opening.append(build("b", "the start"), logLines(view.opening.slice(0, first)));
  cuts.forEach((turn, i) => {  // each turn begun before the first move: its heading, then its lines (draws, rolls)
    const end = i + 1 < cuts.length ? cuts[i + 1].at : view.opening.length;
    opening.append(build("b", heading(turn), "turn"), logLines(view.opening.slice(turn.at, end)));
  });
  opening.scrollTop = opening.scrollHeight;  // its end, the first turn's own lines, shown: a long setup hid them
  log.replaceChildren();
  for (const move of view.moves) {
    const item = build("li", `seat ${move.seat}: ${move.text}`);
    item.value = move.number;
    let at = 0;  // each turn the move began: its heading, its lines under it
    for (const turn of move.turns || []) {
      if (turn.at > at) item.append(logLines(move.lines.slice(at, turn.at)));
      item.append(build("b", heading(turn), "turn"));
      at = turn.at;
    }
    if (at < move.lines.length) item.append(logLines(move.lines.slice(at)));
    log.append(item);
  }
  log.scrollTop = reading ? kept : log.scrollHeight;  // the newest move, unless the reader is further up
}

// What has the keyboard's focus among what a draw makes anew (a cell, a chip, an action), as a selector that finds
// it again; null: nothing there.  A table drawn again (the bot's reply arriving twice, by its call and by the table's
// events; the other player's move at a table of two humans) dropped the focus to the page's start.
function focusedOnTable() {
  const active = document.activeElement;
  const cell = active?.closest?.("#view .cell");
  if (cell) return `#view .cell[data-cell="${CSS.escape(cell.dataset.cell)}"]`;
  if (active?.matches?.("#view .chip")) {
    const zone = active.closest(".zone")?.dataset.zone;
    return `#view .zone[data-zone="${CSS.escape(zone || "")}"] .chip[data-name="${CSS.escape(active.dataset.name)}"]`;
  }
  if (active?.matches?.("#actions button.action")) return { action: active.textContent };
  return null;
}

// The focus given back to what `held` (focusedOnTable) found, drawn anew, while it may still be played; the focus
// left where it went meanwhile, if anywhere.
function giveBack(held) {
  const active = document.activeElement;
  if (!held || (active && active !== document.body)) return;
  const again = typeof held === "string" ? document.querySelector(held)
    : Array.from(document.querySelectorAll("#actions button.action")).find((b) => b.textContent === held.action);
  if (again && again.tabIndex >= 0) again.focus({ preventScroll: true });  // the page stays where it was read
}

function draw(data) {
  view = data;
  const held = focusedOnTable();
  document.getElementById("view").innerHTML = view.html;
  // the situation is a polite live region: a screen reader reads whose turn it is, or who won, when it changes
  // (written anew only then, so that the same words are not read again at every event of the table)
  const situation = document.getElementById("situation");
  const said = JSON.stringify(view.situation);
  if (situation.dataset.said !== said) {
    situation.dataset.said = said;
    situation.replaceChildren(...view.situation.map((line) => build("p", line)));
  }
  const explanation = document.getElementById("explanation");
  explanation.replaceChildren();
  if (view.mode === "replay") {
    if (scrubbed === null) document.getElementById("scrub").value = view.position;  // not under the pointer's thumb
    document.getElementById("position").textContent = `position ${view.position} of ${view.length}`;
  }
  // A replay explains its position's move; a game over, the move that ended it (its log says who won and why).
  const e = view.mode === "replay" ? view.explanation : view.over ? view.moves[view.moves.length - 1] : null;
  if (e) {
    explanation.append(build("b", `${e.number}. seat ${e.seat}: ${e.text}`));
    for (const line of e.lines) explanation.append(build("div", line));
    // a long move's explanation scrolls: the end of the game shows its end, who won and why; a replay, the move's start
    explanation.scrollTop = view.mode === "replay" ? 0 : explanation.scrollHeight;
  }
  drawSeats();
  drawSave();
  drawUndo();
  drawInvites();
  const playable = new Set(view.actions.flatMap((a) => a.cells));
  const last = new Set(view.last_cells);
  for (const cell of document.querySelectorAll("#view .cell")) {
    cell.classList.toggle("playable", playable.has(cell.dataset.cell));
    const label = cell.querySelector("title")?.textContent || cell.dataset.cell;  // its name, as its title says it
    if (playable.has(cell.dataset.cell)) {  // reached with Tab, played with Enter or the space bar, as a button
      cell.setAttribute("tabindex", "0");
      cell.setAttribute("role", "button");
      // named by what lies there ("K at e1", a stack's pieces) where a piece does, else by the cell's name: a
      // screen reader said only "e1, button", whatever stood there
      cell.setAttribute("aria-label", cell.querySelector(".piece > title")?.textContent || label);
    }
    cell.classList.toggle("last", last.has(cell.dataset.cell));
    if (last.has(cell.dataset.cell)) cell.parentNode.append(cell);  // drawn last: no neighbour covers its outline
    const here = (a) => a.cells.includes(cell.dataset.cell);
    cell.addEventListener("click", () => choose(label, here));
    cell.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      refocus = `#view .cell[data-cell="${cell.dataset.cell}"]`;
      choose(label, here, true);
    });
  }
  // a component's chip, or a component drawn along a link of the board (a route), which says its zone itself
  for (const chip of document.querySelectorAll("#view .chip, #view svg .edge[data-name]")) {
    const name = chip.dataset.name;
    const zone = chip.dataset.zone || chip.closest(".zone")?.dataset.zone;
    // an answer to a choice says where its component lies: a chip of that name in another zone is not it
    const names = (a) => namesComponent(a.text, name) && (!a.zones.length || a.zones.includes(zone));
    chip.classList.toggle("playable", view.actions.some(names));
    // a chip that plays nothing is passed by Tab: the keyboard went through every card on the table (the supply's,
    // the other players' piles) on its way from the board to the actions
    if (chip.matches(".chip:not(.playable)")) chip.setAttribute("tabindex", "-1");
    chip.addEventListener("click", (event) => choose(name, names, event.detail === 0));
    if (chip.matches(".edge.playable")) {  // a link's component, lit: reached with Tab and played as a cell is
      chip.setAttribute("tabindex", "0");
      chip.setAttribute("role", "button");
      chip.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        refocus = `#view .edge[data-name="${CSS.escape(name)}"]`;
        choose(name, names, true);
      });
    }
  }
  drawActions();
  giveBack(held);
  drawLog();
  document.body.dataset.over = String(view.over);
  document.body.dataset.mode = view.mode;
  if (view.mode === "watch") {  // the game over, nothing plays on: "pause" and "step" did nothing, "pause" said it played
    for (const id of ["playpause", "step"]) {
      const button = document.getElementById(id);
      button.disabled = view.over;
      button.title = view.over ? "the game is over: back takes its last move back" : "";
    }
    document.getElementById("playpause").textContent = playing && !view.over ? "pause" : "play";
  }
  schedule();
}

// "Seen by": the seats this browser may be shown, as they are now (a seat handed to another browser leaves the list).
function drawSeats() {
  const select = document.getElementById("seat");
  // a table of bots only keeps no secret from its watchers: "everyone" shows every zone, and is always offered
  const values = (view.seat === null || view.everyone ? [""] : []).concat(view.seats.map(String));
  // a bot's seat at a table a human plays says whose it is and that it shows what the bot hides, until the end
  const names = values.map((value) => value ? view.seat_names[value] : view.everyone ? "everyone: every zone" : "no seat: what every seat sees");
  if (Array.from(select.options, (option) => option.textContent).join("\n") !== names.join("\n")) {
    select.replaceChildren(...values.map((value, i) => {
      const option = build("option", names[i]);
      option.value = value;
      return option;
    }));
  }
  select.value = view.seat === null ? "" : String(view.seat);
}

// The save link: for this page's seat, or, when this page may not save now, the reason instead of a download.
// For the same reason (a page playing some of the human seats, the game on), the page stays with its seat:
// "seen by" another seat would show that seat's hidden cards.
function drawSave() {
  const save = document.getElementById("save");
  save.classList.toggle("unavailable", Boolean(view.unsaved));
  save.title = view.unsaved || "";
  if (view.unsaved) save.removeAttribute("href");
  else save.href = `${base}/save${seat ? `?seat=${seat}` : ""}`;
  const seen = document.getElementById("seat");
  seen.disabled = Boolean(view.unsaved);
  seen.title = view.unsaved ? `this page plays seat ${view.seat} at a table of several humans: it shows only what that seat may see until the game is over` : "";
}

// The undo button shows only where this page may take back the last move: not on a page that plays no seat, nor,
// at a table of several humans, on another seat's than the one that made the last human move (nor before any).
function drawUndo() {
  const undo = document.getElementById("undo");
  if (undo) undo.hidden = Boolean(view.undo_refused);
}

// The links handing this browser's other seats to other browsers: shown to the browser holding them (the one that
// opened the table), for the other humans to play from their own browsers; and this browser's way back to its seats.
function drawInvites() {
  const back = document.getElementById("way-back");
  back.replaceChildren();
  if (view.way_back) {
    const seats = view.way_back.split("&back=").length > 1 ? "your seats" : "your seat";
    const line = build("p", `to come back to ${seats} from any browser (if this one forgets its cookies), keep: `);
    const link = build("a", window.location.origin + view.way_back);
    link.href = view.way_back;
    line.append(link, build("small", ` (for you only: whoever opens it plays ${seats})`));
    back.append(line);
  }
  const box = document.getElementById("invites");
  box.replaceChildren();
  for (const [other, path] of Object.entries(view.invites)) {
    const line = build("p", `seat ${other} from another browser: `, "invite");
    const link = build("a", window.location.origin + path);
    link.href = path;
    link.dataset.seat = other;
    line.append(link, build("small", " (opening it there gives that browser the seat, and takes it from this one)"));
    box.append(line);
  }
}

// Whether an action's text names the component `name` as a whole word: a card "1" is not named by "commit 1+ to left".
function namesComponent(text, name) {
  return ` ${text} `.includes(` ${name} `);
}

// A click on a cell or a card: play the only action there, else list the actions there (those `test` finds, the
// filter showing `label`: the page lit the cell or card for exactly these).
function choose(label, test, keyboard) {
  const here = view.actions.filter(test);
  if (here.length === 1) {
    if (keyboard) refocus = refocus || "#filter";
    act(here[0].text);
  } else if (here.length > 1) {
    picked = { label, test };
    document.getElementById("filter").value = label;
    drawActions();
    document.getElementById("actions").scrollIntoView({ block: "nearest" });  // a phone lists them below the board
    if (keyboard) {
      refocus = null;
      document.querySelector("#actions button")?.focus();  // the keyboard goes on among them
    }
  }
}

// An action picked on the table as this page shows it: the version goes along, so that a click that arrives
// twice (a double click) or after the table moved on plays nothing, instead of playing for whoever moves next.
async function act(text) {
  document.getElementById("filter").value = "";
  picked = null;
  await call("/act", { action: text, seat: seat ? Number(seat) : null, version: view.version });
}

// The bot's next move, after the position this page drew: when another page of the table (another tab, the other
// player's browser) has asked for it already, the server plays nothing and sends the table as it is.
const nextMove = () => ({ version: view.version });

function schedule() {
  clearTimeout(timer);
  if (view.over || !view.bot_to_move || halted === view.version) return;
  if (view.mode === "play") timer = setTimeout(() => call("/advance", nextMove), 250);
  else if (view.mode === "watch" && playing) {
    const speed = Number(document.getElementById("speed").value);
    timer = setTimeout(() => call("/advance", nextMove), 1500 - speed);
  }
}

document.getElementById("save").addEventListener("click", () => {
  if (view.unsaved) showMessage(view.unsaved);
});
document.getElementById("filter").addEventListener("input", drawActions);
document.getElementById("filter").addEventListener("keydown", (event) => {
  const shown = matching();
  const typed = event.target.value.trim();
  if (event.key === "Enter" && shown.length === 1) {
    refocus = "#filter";
    act(shown[0].text);
  } else if (event.key === "Enter" && shown.length === 0 && typed) {  // naming no action: as the terminal reads it
    refocus = "#filter";
    const number = /^#?\d+$/.test(typed) ? Number(typed.replace("#", "")) : 0;  // #3 or 3: the list's third action
    if (number >= 1 && number <= view.actions.length) act(view.actions[number - 1].text);
    else call("/act", { action: typed, typed: true, seat: seat ? Number(seat) : null, version: view.version });
  }
});
document.getElementById("seat").addEventListener("change", async (event) => {
  seat = event.target.value;
  await call("");
  follow();
});

function follow() {
  if (source) source.close();
  source = new EventSource(`${base}/events${seat ? `?seat=${seat}` : ""}`);
  source.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (!data.error && data.version > view.version) draw(data);
  };
  // The server refused to follow the table (it is gone: closed, or the server started again): ask for the table
  // once, so that the page says why at once instead of at the next click.
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) call("", undefined, true);
  };
}

for (const tab of document.querySelectorAll(".tabs button")) {
  tab.addEventListener("click", () => {
    for (const other of document.querySelectorAll(".tabs button")) other.classList.toggle("active", other === tab);
    for (const section of document.querySelectorAll(".tab")) section.hidden = section.id !== `tab-${tab.dataset.tab}`;
  });
}

document.getElementById("simulate").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const query = new URLSearchParams();
  for (const [key, value] of form.entries()) {
    if (key === "set") {
      for (const line of String(value).split("\n")) if (line.trim()) query.append("set", line.trim());
    } else if (value) query.set(key, value);
  }
  // a space as %20: the server reads a '+' as itself (set=name=a+b), and URLSearchParams writes a space as '+'
  document.getElementById("report").src =
    `/simulate/${encodeURIComponent(event.target.dataset.ruleset)}?${String(query).replace(/\+/g, "%20")}`;
});

if (view.mode === "play") {
  // the table as this page shows it: the second click of a double click takes back nothing more
  document.getElementById("undo").addEventListener("click", () => call("/undo", { version: view.version }));
} else if (view.mode === "watch") {
  document.getElementById("playpause").addEventListener("click", () => {
    playing = !playing;
    halted = null;
    document.getElementById("playpause").textContent = playing ? "pause" : "play";
    schedule();
  });
  document.getElementById("step").addEventListener("click", () => { playing = false; call("/advance", nextMove); });
  document.getElementById("back").addEventListener("click", () => { playing = false; call("/undo", {}); });
} else {
  // The slider redraws the table while its thumb is dragged, one call at a time: the position the thumb is at when
  // the call before is answered is asked for next, so that the calls do not pile up behind a fast thumb, and the
  // thumb stays where the pointer holds it until the table has caught up.
  const scrub = document.getElementById("scrub");
  const scrubTo = () => {
    scrubbed = Number(scrub.value);
    if (scrubbing) return;
    if (scrubbed === view.position) {  // there already (the thumb let go where the table was last drawn)
      scrubbed = null;
      return;
    }
    scrubbing = true;
    const position = scrubbed;
    call("/goto", { position }).finally(() => {
      scrubbing = false;
      if (Number(scrub.value) !== position) scrubTo();
      else {
        scrubbed = null;
        scrub.value = view.position;  // where the table is (the same, unless the server refused)
      }
    });
  };
  scrub.addEventListener("input", scrubTo);
  scrub.addEventListener("change", scrubTo);
  document.getElementById("prev").addEventListener("click", () => call("/goto", () => ({ position: Math.max(0, view.position - 1) })));
  document.getElementById("next").addEventListener("click", () => call("/goto", () => ({ position: Math.min(view.length, view.position + 1) })));
}

document.body.dataset.busy = "false";
draw(view);
follow();
