import { $, call, constants, rules, status, scheduleCheck } from "./page.js";

// -- play: draw paths by dragging, as in the game ---------------------------------------------------
// The page has two modes, editing and play (play.on); the board's handlers ask it, each for its own gesture.
export const play = { on: false, board: null, paths: {}, drawing: null, adj: new Map(), bridges: new Set(), centre: {},
               moves: 0, lastMoved: null, undo: [], started: 0, timer: null, solved: false };

// The API gives every position as [line, column]; play keys cells by "line:column" strings.
const key = ([line, column]) => `${line}:${column}`;
const cellOf = (k) => k.split(":").map(Number);
let solvedHook = () => {};
// What happens when a board is solved by play, besides "solved!" (the level browser remembers it).
export function onSolved(fn) { solvedHook = fn; }
// The board the player plays: the checked board (or null), set by the board module after every check.
export function setPlayBoard(data) { play.board = data ? playBoard(data) : null; }

export function playBoard(data) {
  return { ...data, endpoints: Object.fromEntries(data.endpoints.map((e) => [key(e.cell), e.label])),
           links: data.links.map(([u, v, axis]) => [key(u), key(v), axis]), bridges: data.bridges.map(key) };
}

function resetPlay() {  // a fresh game on the board shown: no paths, no moves, the clock from zero
  play.paths = {}; play.moves = 0; play.lastMoved = null; play.undo = []; play.solved = false; $("solved").hidden = true;
  play.started = Date.now();
  clearInterval(play.timer);
  play.timer = setInterval(() => { if (play.on && !play.solved) scoreText(); }, 1000);
}

export function startPlay() {
  const b = play.board;
  if (!b) { status("fix the problems first: only a valid board can be played"); return stopPlay(); }
  play.adj = new Map(); play.bridges = new Set(b.bridges);
  for (const [u, v] of b.links) {
    for (const [a, c] of [[u, v], [v, u]]) { if (!play.adj.has(a)) play.adj.set(a, new Set()); play.adj.get(a).add(c); }
  }
  play.centre = {};
  document.querySelectorAll("#board polygon.cell").forEach((poly) => {
    const pts = poly.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
    play.centre[poly.dataset.cell] = [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
  });
  for (const label of Object.keys(play.paths)) if (!Object.values(b.endpoints).includes(label)) delete play.paths[label];
  $("hint").disabled = false;
  drawPlay();
}

export function stopPlay() {
  play.on = false; $("play").classList.remove("on"); $("board").classList.remove("playing"); $("hint").disabled = true; $("restart").disabled = true;
  play.paths = {}; clearInterval(play.timer); $("score").textContent = ""; $("solved").hidden = true; status("");
  scheduleCheck(0);
}

$("play").onclick = () => (play.on ? stopPlay() : beginPlay());

export function beginPlay() {  // play the board shown, from a fresh start
  play.on = true; $("play").classList.add("on"); $("board").classList.add("playing"); $("restart").disabled = false; status("play: drag from an endpoint");
  resetPlay();
  startPlay();
  // a solve's answer may be drawn on it: the player starts from the bare board (the check draws it, then play again)
  if (document.querySelector("#board g.pipe")) scheduleCheck(0);
}

$("restart").onclick = () => { if (play.on) { resetPlay(); status("play: drag from an endpoint"); drawPlay(); } };

export function undoMove() {  // in play, Undo takes back the last stroke
  if (!play.undo.length) return;
  play.paths = play.undo.pop(); play.solved = false; $("solved").hidden = true; status(""); drawPlay();
}

function cellAt(ev) {
  const el = document.elementFromPoint(ev.clientX, ev.clientY);
  const cell = el && el.closest && el.closest("polygon.cell");
  return cell ? cell.dataset.cell : null;
}

function owner(pos) {
  for (const [label, path] of Object.entries(play.paths)) if (path.includes(pos)) return label;
  return null;
}

function joined(label) {
  const path = play.paths[label] || [];
  return path.length > 1 && play.board.endpoints[path[0]] === label && play.board.endpoints[path[path.length - 1]] === label;
}

function cutAt(pos, except) {  // crossing a path cuts it (a bridge holds two)
  if (play.bridges.has(pos)) return;
  for (const [label, path] of Object.entries(play.paths)) {
    if (label === except) continue;
    const i = path.indexOf(pos);
    if (i >= 0) path.length = i;
  }
}

$("board").addEventListener("pointerdown", (ev) => {
  if (!play.on || !play.board) return;
  const pos = cellAt(ev);
  if (!pos) return;
  const label = play.board.endpoints[pos] || owner(pos);
  if (!label) return;
  ev.preventDefault();
  play.undo.push(JSON.parse(JSON.stringify(play.paths)));  // each stroke can be taken back
  if (label !== play.lastMoved) { play.moves += 1; play.lastMoved = label; }  // the game's moves: a new flow picked up
  play.solved = false; $("solved").hidden = true; status("");  // any change clears "solved!"
  if (play.board.endpoints[pos]) { play.paths[label] = [pos]; cutAt(pos, label); }
  else { const path = play.paths[label]; path.length = path.indexOf(pos) + 1; }
  play.drawing = label;
  drawPlay();
});

// A quick drag skips cells between two pointer events: the game fills them in, along the board's links (warps too).
const MAX_SKIP = 12;

function stepTo(label, pos) {  // the path one cell further, along a link; false where the game refuses the move
  const path = play.paths[label], last = path[path.length - 1];
  if (!play.adj.get(last) || !play.adj.get(last).has(pos)) return false;  // only along a link
  if (joined(label)) return false;
  const end = play.board.endpoints[pos];
  if (end && end !== label) return false;  // another flow's endpoint
  cutAt(pos, label);
  path.push(pos);
  return true;
}

function route(from, to, label) {  // the cells after ``from`` up to ``to`` by the fewest links, or null beyond MAX_SKIP
  const before = new Map([[from, null]]), own = new Set(play.paths[label]);
  let frontier = [from];
  for (let depth = 0; depth < MAX_SKIP && frontier.length; depth++) {
    const next = [];
    for (const cell of frontier) {
      for (const n of play.adj.get(cell) || []) {
        if (before.has(n)) continue;
        // (a bridge is crossed straight only, an endpoint ends a path, the path's own cells would loop: not passed)
        if (n !== to && (play.bridges.has(n) || play.board.endpoints[n] || own.has(n))) continue;
        before.set(n, cell);
        if (n === to) {
          const cells = [];
          for (let c = n; c !== from; c = before.get(c)) cells.unshift(c);
          return cells;
        }
        next.push(n);
      }
    }
    frontier = next;
  }
  return null;
}

document.addEventListener("pointermove", (ev) => {
  if (!play.drawing) return;
  const pos = cellAt(ev), label = play.drawing, path = play.paths[label];
  if (!pos || pos === path[path.length - 1]) return;
  const at = path.indexOf(pos);
  if (at >= 0 && !play.bridges.has(pos)) { path.length = at + 1; return drawPlay(); }
  const last = path[path.length - 1];
  const cells = play.adj.get(last) && play.adj.get(last).has(pos) ? [pos] : route(last, pos, label) || [];
  let moved = false;
  for (const cell of cells) { if (!stepTo(label, cell)) break; moved = true; }
  if (moved) drawPlay();
});

const endDrawing = () => { if (play.drawing) { play.drawing = null; scorePlay(); } };
document.addEventListener("pointerup", endDrawing);
document.addEventListener("pointercancel", endDrawing);

function drawPlay() {
  const svg = document.querySelector("#board svg");
  if (!svg) return;
  let g = svg.querySelector("g.player:not(.tints)");
  let tints = svg.querySelector("g.tints");
  if (!g) {  // pipes under the endpoint dots, tints under the grid lines, as the game draws them
    g = document.createElementNS("http://www.w3.org/2000/svg", "g"); g.setAttribute("class", "player");
    svg.insertBefore(g, svg.querySelector("circle.endpoint"));
    tints = document.createElementNS("http://www.w3.org/2000/svg", "g"); tints.setAttribute("class", "player tints");
    svg.insertBefore(tints, svg.querySelector("line"));
  }
  g.innerHTML = ""; tints.innerHTML = "";
  for (const [label, path] of Object.entries(play.paths)) {  // each cell a flow passes, tinted in its colour
    for (const pos of path) {
      const cell = svg.querySelector(`polygon.cell[data-cell="${pos}"]`);
      if (!cell) continue;
      const tint = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
      tint.setAttribute("points", cell.getAttribute("points")); tint.setAttribute("class", "tint");
      tint.setAttribute("fill", play.board.colours[label]); tint.setAttribute("fill-opacity", "0.3");
      tint.setAttribute("data-flow", label);
      tints.appendChild(tint);
    }
  }
  const [u, v] = play.board.links[0] || [];
  const width = u && v ? 0.32 * Math.hypot(play.centre[u][0] - play.centre[v][0], play.centre[u][1] - play.centre[v][1]) : 12;
  for (const [label, path] of Object.entries(play.paths)) {
    if (path.length < 2) continue;
    const rim = play.board.rims && play.board.rims[label];
    if (rim) {  // a colour close to the background: a rim under the pipe, as the server draws it
      const under = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
      under.setAttribute("points", path.map((p) => play.centre[p].join(",")).join(" "));
      under.setAttribute("fill", "none"); under.setAttribute("stroke", rim); under.setAttribute("stroke-width", width * 1.25);
      under.setAttribute("stroke-linecap", "round"); under.setAttribute("stroke-linejoin", "round");
      g.appendChild(under);
    }
    const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    line.setAttribute("points", path.map((p) => play.centre[p].join(",")).join(" "));
    line.setAttribute("fill", "none"); line.setAttribute("stroke", play.board.colours[label]);
    line.setAttribute("stroke-width", width); line.setAttribute("stroke-linecap", "round"); line.setAttribute("stroke-linejoin", "round");
    line.setAttribute("data-flow", label);
    g.appendChild(line);
  }
  scoreText();
}

function scoreText() {
  const labels = [...new Set(Object.values(play.board.endpoints))];
  const filled = new Set(Object.values(play.paths).flat());
  const cells = document.querySelectorAll("#board polygon.cell").length;
  const seconds = Math.floor((Date.now() - play.started) / 1000);
  const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  $("score").textContent = `flows ${labels.filter(joined).length}/${labels.length} · cells ${filled.size}/${cells}` +
    ` · moves ${play.moves} · ${clock}`;
  // Numberlink rules: every flow joined is enough (cells may stay empty); the verifier decides either way
  const fills = constants.rules.find((r) => r.name === play.board.rules)?.fills_every_cell ?? true;
  return { all: labels.every(joined) && (filled.size === cells || !fills) };
}

async function scorePlay() {
  if (!scoreText().all) return;
  const paths = Object.fromEntries(Object.entries(play.paths).map(([label, path]) => [label, path.map(cellOf)]));
  const { data } = await call("/api/verify", { text: $("text").value, paths, rules: rules() });
  play.solved = !!data.solved;  // only the verifier says "solved!"
  if (!play.solved) return status("not yet: " + (data.problems || [])[0]);
  status("");  // the banner says it, as the game does, with the figures of the game
  $("solved-figures").textContent = $("score").textContent.replace(/^flows \S+ · cells \S+ · /, "");
  $("solved").hidden = false;
  solvedHook($("text").value);
}

$("hint").onclick = async () => {
  const labels = [...new Set(Object.values(play.board.endpoints))].filter(joined);
  $("hint").disabled = true;  // one hint at a time: a second click would ask for the same flow
  // what the player has drawn: the hint is the next step from there, as a person would take it
  const paths = Object.fromEntries(Object.entries(play.paths).map(([label, path]) => [label, path.map(cellOf)]));
  const { ok, data } = await call("/api/hint", { text: $("text").value, done: labels, paths, rules: rules() });
  $("hint").disabled = !play.on;
  if (!ok || !data.label) return status(ok ? "every flow is joined" : data.error);
  const path = data.path.map(key);
  for (const pos of path) cutAt(pos, data.label);
  play.paths[data.label] = path;
  drawPlay(); await scorePlay();
  if (data.note && !data.technique && !play.solved) status(`hint: ${data.note}`);  // a path that left the solution
  if (data.technique && !play.solved) {  // why, as a person would see it: the technique and its cells lit
    status(`hint: flow ${data.label} (${data.technique}, tier ${data.tier}): ${data.note}`);
    for (const [line, col] of data.cells || []) {
      document.querySelector(`#board polygon[data-cell="${line}:${col}"]`)?.classList.add("hint");
    }
  }
};

