// The board: its check and drawing, the editing tools (pointer and keyboard), typing undone in bursts.
import { $, call, constants, offset, onCheck, rules, scheduleCheck, select, setText, state, status } from "./page.js";
import { play, setPlayBoard, startPlay } from "./play.js";

export async function check() {
  const ticket = ++state.check;  // only the newest answer is shown: typing never piles up
  const { ok, data } = await call("/api/check", { text: $("text").value, rules: rules() });
  if (ticket !== state.check) return;
  if (!ok) {  // the server could not check it (too large, several puzzles): say why, where problems go
    $("badge").className = "badge invalid"; $("badge").textContent = "invalid";
    const li = document.createElement("li");
    li.textContent = data.error || `the server answered ${data.status || "an error"}`;
    $("problems").replaceChildren(li);
    return;
  }
  const badge = $("badge");
  badge.className = "badge " + (data.valid ? "valid" : data.blank ? "blank" : "invalid");
  badge.textContent = data.valid ? `valid · ${data.flows} flows · ${data.cells} cells` +
    (data.rules === "numberlink" ? " · Numberlink" : "") : data.blank ? "new board" : "invalid";
  if (data.svg) $("board").innerHTML = data.svg;
  $("compare").hidden = true;  // two solutions of another board
  if (data.valid) {  // the controls follow the board shown (a New board or Generate starts from them)
    $("family").value = data.family; $("width").value = data.width; $("height").value = data.height;
  }
  setPlayBoard(data.valid ? data : null);
  drawCursor();
  if (play.on) startPlay();
  if (state.answerFor !== null && state.answerFor !== $("text").value) { state.answerFor = null; status(""); }  // stale
  const list = $("problems");
  list.innerHTML = "";
  if (data.blank) {  // nothing is wrong yet: say what to do first
    const li = document.createElement("li");
    li.className = "note";
    li.textContent = "no endpoints yet: with the endpoints tool, pick a colour and click two cells (or open a puzzle)";
    list.appendChild(li);
    return;
  }
  for (const p of data.problems || []) {
    const li = document.createElement("li");
    li.className = p.severity;
    li.textContent = `${p.line}:${p.column}: ${p.severity}: ${p.message}`;
    li.onclick = () => select(p.line, p.column);
    list.appendChild(li);
    const cell = document.querySelector(`#board polygon[data-cell="${p.line}:${p.column}"]`);
    if (cell) cell.classList.add("problem");
  }
}


export async function edit(body) {
  const { ok, data } = await call("/api/edit", { text: $("text").value, ...body, rules: rules() });
  if (ok) setText(data.text); else status(data.error);
}

const place = (el) => el.dataset.xy.split(",").map(Number);
const dragLink = { from: null };


// An endpoint of `label` at a cell (`toggle`: clear it when it is already there); "." clears.
export function putLabel(cell, label, toggle = false) {
  const [line, column] = cell.dataset.cell.split(":").map(Number);
  const text = $("text").value, at = offset(text, line, column), ch = text[at];
  if (ch === undefined || ch === "*") return;  // bridges are never endpoints
  const put = toggle && ch === label ? "." : label;
  if (put !== ch) setText(text.slice(0, at) + put + text.slice(at + 1));
}

// -- author by keyboard: a cursor on the board (arrows move it; a label places that endpoint; . or
// Backspace clears; # makes a hole or a cell again; ? asks whether the solution is unique) ----------
const cursor = { xy: null };
const places = () => [...document.querySelectorAll("#board polygon.cell, #board polygon.hole")];
function centreOf(poly) { const b = poly.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; }

export function drawCursor() {  // an outline over the place, drawn last so it shows whole; the cells keep their order
  document.querySelectorAll("#board .cursor").forEach((p) => p.remove());
  const here = places().find((p) => p.dataset.xy === cursor.xy);
  if (!here) return;
  const mark = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
  mark.setAttribute("points", here.getAttribute("points"));
  mark.setAttribute("class", "cursor"); mark.setAttribute("fill", "none");
  here.ownerSVGElement.appendChild(mark);
}

function moveCursor(dx, dy) {
  const all = places(), here = all.find((p) => p.dataset.xy === cursor.xy);
  if (!here) { cursor.xy = all.length ? all[0].dataset.xy : null; return drawCursor(); }
  const [x0, y0] = centreOf(here);
  let best = null, score = Infinity;
  for (const p of all) {  // the nearest place that way, on any grid (hex rows are not straight lines)
    const [x, y] = centreOf(p), along = (x - x0) * dx + (y - y0) * dy, across = Math.abs((x - x0) * dy - (y - y0) * dx);
    if (along > 1 && along + 2 * across < score) { score = along + 2 * across; best = p; }
  }
  if (best) { cursor.xy = best.dataset.xy; drawCursor(); }
}

// Typing is undone a burst at a time: the text before the first key of a burst goes on the history.

// The board's handlers: checking as the text changes, the authoring tools, the keyboard cursor, typing's undo.
export function wireBoard() {
  onCheck(check);

  // the links tool drags on the board: a finger there must not scroll the page (studio.css)
  $("tool").addEventListener("change", () => $("board").classList.toggle("linking", $("tool").value === "link"));

  // Pointer Events: one code path for a mouse, a finger and a pen (the board has touch-action: none,
  // so a finger drawing a path does not scroll the page).
  $("board").addEventListener("pointerdown", (ev) => {
    const cell = ev.target.closest("polygon.cell");
    if (play.on || $("tool").value !== "link" || !cell) return;
    ev.preventDefault();
    dragLink.from = cell;
  });

  document.addEventListener("pointerup", (ev) => {
    const from = dragLink.from;
    dragLink.from = null;
    if (!from || play.on) return;
    const el = document.elementFromPoint(ev.clientX, ev.clientY);
    const to = el && el.closest && el.closest("polygon.cell");
    if (to && to !== from) edit({ action: "link", xy: place(from), to: place(to) });
  });

  $("board").addEventListener("click", (ev) => {
    const tool = $("tool").value;
    const target = ev.target.closest("polygon.cell, polygon.hole");
    if (!target || play.on || tool === "link") return;
    if (tool === "cell") return edit({ action: "cycle", xy: place(target) });
    if (tool === "warp") {
      const [x, y] = place(target);
      return edit(ev.shiftKey ? { action: "warp-col", index: x } : { action: "warp-row", index: y });
    }
    const cell = ev.target.closest("polygon.cell");
    if (cell) putLabel(cell, $("label").value, true);
  });

  $("board").tabIndex = 0;
  $("board").addEventListener("focus", () => { if (!cursor.xy) moveCursor(0, 0); });
  $("board").addEventListener("keydown", async (ev) => {
    if (play.on || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (arrows[ev.key]) { ev.preventDefault(); return moveCursor(...arrows[ev.key]); }
    const here = places().find((p) => p.dataset.xy === cursor.xy);
    if (!here) return;
    const cell = here.classList.contains("cell") ? here : null;
    if (ev.key === "?") { ev.preventDefault(); return $("unique").click(); }
    if (cell && constants.labels.includes(ev.key)) { ev.preventDefault(); $("label").value = ev.key; return putLabel(cell, ev.key); }
    if (cell && [".", "Backspace", "Delete"].includes(ev.key)) { ev.preventDefault(); return putLabel(cell, "."); }
    if (ev.key === "#") {  // a cell becomes a hole; a hole a cell again (through the bridge the cell tool cycles to)
      ev.preventDefault();
      const xy = here.dataset.xy.split(",").map(Number);
      await edit({ action: "cycle", xy });
      if (!cell) await edit({ action: "cycle", xy });
    }
  });


  $("text").addEventListener("beforeinput", () => {
    if (!state.typing) { state.history.push($("text").value); state.future = []; }
    clearTimeout(state.typing);
    state.typing = setTimeout(() => { state.typing = null; }, 800);
  });
  $("text").addEventListener("input", () => scheduleCheck());
}
