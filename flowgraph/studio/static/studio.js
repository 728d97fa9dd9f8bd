// flowgraph studio: the page. The neighbor-link text is the source of truth; every change is checked by
// the server (the same problem-finder as `flowgraph validate`), which also draws the board.
"use strict";
const $ = (id) => document.getElementById(id);
const LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const state = { history: [], future: [], job: null, timer: null, check: 0, file: null, typing: null, clean: null };

async function call(path, body, method = "POST") {
  if (body && ("text" in body || path === "/api/generate") && !("rules" in body)) body = { ...body, rules: $("rules").value };
  const res = await fetch(path, method === "GET" ? {} : { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  return { ok: res.ok, status: res.status, data };
}

function setText(text, remember = true) {
  if (remember && $("text").value !== text) { state.history.push($("text").value); state.future = []; }
  $("text").value = text;
  scheduleCheck(0);
}

function scheduleCheck(delay = 250) {
  clearTimeout(state.timer);
  state.timer = setTimeout(check, delay);
}

async function check() {
  const ticket = ++state.check;  // only the newest answer is shown: typing never piles up
  const { data } = await call("/api/check", { text: $("text").value });
  if (ticket !== state.check) return;
  const badge = $("badge");
  badge.className = "badge " + (data.valid ? "valid" : "invalid");
  badge.textContent = data.valid ? `valid · ${data.flows} flows · ${data.cells} cells` +
    (data.rules === "numberlink" ? " · Numberlink" : "") : "invalid";
  if (data.svg) $("board").innerHTML = data.svg;
  $("compare").hidden = true;  // two solutions of another board
  if (data.valid) {  // the controls follow the board shown (a New board or Generate starts from them)
    $("family").value = data.family; $("width").value = data.width; $("height").value = data.height;
  }
  play.board = data.valid ? playBoard(data) : null;
  drawCursor();
  if (play.on) startPlay();
  const list = $("problems");
  list.innerHTML = "";
  for (const p of data.problems || []) {
    const li = document.createElement("li");
    li.className = p.severity;
    li.textContent = `${p.line}:${p.column}: ${p.severity}: ${p.message}`;
    li.onclick = () => select(p.line, p.column);
    list.appendChild(li);
    const cell = document.querySelector(`#board polygon[data-pos="${p.line}:${p.column}"]`);
    if (cell) cell.classList.add("problem");
  }
}

function offset(text, line, column) {
  const lines = text.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  return at + column - 1;
}

function select(line, column) {
  const box = $("text"), at = offset(box.value, line, column);
  box.focus(); box.setSelectionRange(at, at + 1);
}

async function edit(body) {
  const { ok, data } = await call("/api/edit", { text: $("text").value, ...body });
  ok ? setText(data.text) : status(data.error);
}

const place = (el) => el.dataset.xy.split(",").map(Number);
const dragLink = { from: null };

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

// An endpoint of `label` at a cell (`toggle`: clear it when it is already there); "." clears.
function putLabel(cell, label, toggle = false) {
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

function drawCursor() {  // an outline over the place, drawn last so it shows whole; the cells keep their order
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
  if (cell && LABELS.includes(ev.key)) { ev.preventDefault(); $("label").value = ev.key; return putLabel(cell, ev.key); }
  if (cell && [".", "Backspace", "Delete"].includes(ev.key)) { ev.preventDefault(); return putLabel(cell, "."); }
  if (ev.key === "#") {  // a cell becomes a hole; a hole a cell again (through the bridge the cell tool cycles to)
    ev.preventDefault();
    const xy = here.dataset.xy.split(",").map(Number);
    await edit({ action: "cycle", xy });
    if (!cell) await edit({ action: "cycle", xy });
  }
});

// Typing is undone a burst at a time: the text before the first key of a burst goes on the history.
$("text").addEventListener("beforeinput", () => {
  if (!state.typing) { state.history.push($("text").value); state.future = []; }
  clearTimeout(state.typing);
  state.typing = setTimeout(() => { state.typing = null; }, 800);
});
$("text").addEventListener("input", () => scheduleCheck());
// Unsaved changes: the browser asks before the page is left (the text differs from the one opened or saved).
function markClean() { state.clean = $("text").value; }
window.addEventListener("beforeunload", (ev) => { if (state.clean !== null && $("text").value !== state.clean) ev.preventDefault(); });
$("new").onclick = async () => {
  const { ok, data } = await call("/api/new", { family: $("family").value, width: +$("width").value, height: +$("height").value });
  ok ? (setText(data.text), status("")) : status(data.error);
};
$("generate").onclick = async () => {
  status("generating…");
  const { ok, data } = await call("/api/generate", { family: $("family").value, width: +$("width").value,
    height: +$("height").value, seed: Math.floor(Math.random() * 1e6) });
  ok ? (setText(data.text), status(`generated: unique, ${data.figures.flows} flows`)) : status(data.error);
};
$("unique").onclick = async () => {
  status("counting solutions…");
  const { ok, data } = await call("/api/count", { text: $("text").value, time_limit_s: +$("limit").value });
  if (!ok) return status(data.error);
  const words = { unique: "unique solution", multiple: `several solutions (they differ in ${data.differ.length} cells)`,
                  none: "no solution", limit: "gave up: the time limit ran out" };
  status(words[data.verdict]);
  if (data.verdict === "unique") $("badge").className = "badge unique";
  const panels = [...$("compare").querySelectorAll("figure > div")];
  data.svgs.forEach((svg, i) => { panels[i].innerHTML = svg; });
  $("compare").hidden = !data.svgs.length;  // the two solutions side by side
  for (const [line, column] of data.differ) {
    const cell = document.querySelector(`#board polygon[data-cell="${line}:${column}"]`);
    if (cell) cell.classList.add("problem");
    for (const solved of $("compare").querySelectorAll(`polygon.cell[data-cell="${line}:${column}"]`)) {
      const mark = document.createElementNS("http://www.w3.org/2000/svg", "polygon");  // over the pipes
      mark.setAttribute("points", solved.getAttribute("points"));
      mark.setAttribute("class", "problem"); mark.setAttribute("fill", "none");
      solved.ownerSVGElement.appendChild(mark);
    }
  }
};

function status(text) { $("status").textContent = text || ""; }

$("solve").onclick = async () => {
  const { ok, status: code, data } = await call("/api/solve", { text: $("text").value, time_limit_s: +$("limit").value });
  if (!ok) return status(data.error || `error ${code}`);
  state.job = data.job; $("stop").disabled = false; status("solving…");
  poll(data.job);
};

async function poll(job) {
  const { data } = await call(`/api/solve/${job}`, null, "GET");
  if (state.job !== job) return;
  if (data.status === "running") return setTimeout(() => poll(job), 150);
  $("stop").disabled = true; state.job = null;
  if (data.status !== "solved") return status(data.status === "cancelled" ? "stopped" : data.status + (data.message ? ": " + data.message : ""));
  const work = data.stats.states !== undefined ? `${data.stats.states} states` : `${data.stats.sat_calls} SAT calls`;
  status(`solved in ${data.stats.seconds.toFixed(3)} s, ${work}`);
  replay(data.frames);
}

function replay(frames) {
  let i = 0;
  const show = () => { $("board").innerHTML = frames[i]; if (++i < frames.length) setTimeout(show, 80); };
  show();
}

$("rules").onchange = () => scheduleCheck(0);  // the badge, play's "solved!" and every answer follow the rules
$("stop").onclick = async () => { if (state.job) { await call(`/api/solve/${state.job}/stop`, {}); status("stopping…"); } };
$("undo").onclick = () => { if (play.on) return undoMove(); if (state.history.length) { state.future.push($("text").value); setText(state.history.pop(), false); } };
$("redo").onclick = () => { if (state.future.length) { state.history.push($("text").value); setText(state.future.pop(), false); } };
$("save").onclick = async () => {
  const { ok, data } = await call("/api/save", { text: $("text").value });
  if (ok) markClean();
  status(ok ? `saved ${data.saved}` : data.error);
};
$("upload").onchange = async (ev) => {  // any format convert reads, or a screenshot; edited as neighbor-link text
  const file = ev.target.files[0];
  if (!file) return;
  if (file.type.startsWith("image/")) return openPicture(file);
  const text = await file.text();
  if (await openPack(file.name, text)) return;  // many puzzles: the level browser
  const { ok, data } = await call("/api/convert", { text, to: "neighbor-link", rules: undefined });
  if (ok) $("rules").value = data.rules;  // a numlin URL is a Numberlink puzzle; the text cannot say so
  setText(ok ? data.text : text);
  status(ok ? `opened ${file.name}` + (ok && data.rules === "numberlink" ? " (Numberlink rules: cells may stay empty)" : "")
            : `${file.name}: ${data.error}`);
};

async function openPicture(file) {  // a screenshot: the scanner reads the board
  status(`scanning ${file.name}…`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const { ok, data } = await call("/api/scan", { image: btoa(binary) });
  if (!ok) return status(`${file.name}: ${data.error}`);
  setText(data.text);
  status(`scanned ${file.name}: ${data.summary}`);
}

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob); a.download = name; a.click();
}
document.querySelectorAll("[data-export]").forEach((button) => button.onclick = async () => {
  const kind = button.dataset.export, text = $("text").value;
  if (kind === "txt") return download("board.txt", new Blob([text], { type: "text/plain" }));
  if (kind === "json") {
    const { ok, data } = await call("/api/convert", { text, to: "json-graph" });
    return ok ? download("board.json", new Blob([data.text], { type: "application/json" })) : status(data.error);
  }
  const solution = $("export-solution").checked, name = solution ? "solution" : "board";
  if (solution) status("solving for the picture…");
  const { ok, data } = await call("/api/render", { text, png: kind === "png", solution, cell_px: +$("export-size").value,
                                                  time_limit_s: +$("limit").value });
  if (!ok) return status(data.error);
  status(`exported ${name}.${kind}`);
  if (kind === "svg") return download(`${name}.svg`, new Blob([data.svg], { type: "image/svg+xml" }));
  const bytes = Uint8Array.from(atob(data.png), (c) => c.charCodeAt(0));
  download(`${name}.png`, new Blob([bytes], { type: "image/png" }));
});

document.addEventListener("keydown", (ev) => {
  const ctrl = ev.ctrlKey || ev.metaKey;
  if (ctrl && ev.key === "Enter") { ev.preventDefault(); $("solve").click(); }
  else if (ev.key === "Escape") $("stop").click();
  else if (ctrl && ev.key === "s") { ev.preventDefault(); $("save").click(); }
  else if (ctrl && ev.key === "z" && ev.target !== $("text")) { ev.preventDefault(); $("undo").click(); }
  else if (ctrl && ev.key === "y" && ev.target !== $("text")) { ev.preventDefault(); $("redo").click(); }
});

// -- share: a link whose fragment carries the board (base64url of the UTF-8 text), and copies in
// the formats other tools read ---------------------------------------------------------------------
function toBase64url(text) {
  let binary = "";
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function fromBase64url(data) {
  const binary = atob(data.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
async function offer(text, what) {  // shown to copy by hand, and copied where the browser lets the page
  $("shared").value = text; $("shared").select();
  try { await navigator.clipboard.writeText(text); status(`${what} copied`); } catch { status(`${what}: copy it from the box`); }
}
$("share-link").onclick = () => {
  const rules = $("rules").value === "numberlink" ? "&rules=numberlink" : "";
  offer(`${location.origin}${location.pathname}#board=${toBase64url($("text").value)}${rules}`, "link");
};
document.querySelectorAll("[data-copy]").forEach((button) => button.onclick = async () => {
  const to = button.dataset.copy;
  if (to === "level-pack") status("solving for the level-pack line…");
  const { ok, data } = await call("/api/convert", { text: $("text").value, to, time_limit_s: +$("limit").value });
  ok ? offer(data.text.trim(), to === "puzzlink" ? "puzz.link URL" : "level-pack line") : status(data.error);
});
function sharedBoard() {  // the board a share link carries, or null
  const fields = new URLSearchParams(location.hash.slice(1));
  if (!fields.get("board")) return null;
  try { return { text: fromBase64url(fields.get("board")), rules: fields.get("rules") === "numberlink" ? "numberlink" : "flow" }; }
  catch { status("this link's board cannot be read"); return null; }
}

// -- the level browser: a pack's levels as thumbnails; progress kept in this browser's storage -----
const pack = { name: null, text: null, total: 0, levels: [], current: -1 };
function boardKey(text) {  // FNV-1a of the board's text: a level is "solved" wherever it is opened again
  let h = 2166136261;
  for (const c of text) { h ^= c.codePointAt(0); h = Math.imul(h, 16777619) >>> 0; }
  return h.toString(36);
}
function solvedBoards() {
  try { return new Set(JSON.parse(localStorage.getItem("flowgraph.solved") || "[]")); } catch { return new Set(); }
}
function rememberSolved(text) {
  const solved = solvedBoards();
  solved.add(boardKey(text));
  try { localStorage.setItem("flowgraph.solved", JSON.stringify([...solved].slice(-5000))); } catch { /* storage full or off */ }
  if (pack.total) drawLevels();
}

async function openPack(name, text) {  // true when the text holds several puzzles and the browser shows them
  const { ok, data } = await call("/api/levels", { text, name, rules: undefined });
  if (!ok || data.total < 2) return false;
  Object.assign(pack, { name, text, total: data.total, levels: data.levels, current: -1 });
  $("pack").hidden = false; $("pack-name").textContent = `${name}: ${data.total} levels`;
  await openLevel(0);
  return true;
}

async function moreLevels() {
  const { ok, data } = await call("/api/levels", { text: pack.text, name: pack.name, offset: pack.levels.length, rules: undefined });
  if (!ok || !data.levels.length) return false;
  pack.levels.push(...data.levels);
  drawLevels();
  return true;
}

function drawLevels() {
  const solved = solvedBoards(), box = $("levels");
  box.innerHTML = "";
  for (const level of pack.levels) {
    const done = solved.has(boardKey(level.text)), button = document.createElement("button");
    button.className = "level" + (level.index === pack.current ? " current" : "") + (done ? " solved" : "");
    button.dataset.level = level.index;
    button.innerHTML = level.svg || `<span class="no-thumb">${level.width}×${level.height}</span>`;
    const caption = document.createElement("span");
    caption.innerHTML = `${level.index + 1} · ${level.width}×${level.height} · <span class="status">${done ? "✓ solved" : "unsolved"}</span>`;
    button.appendChild(caption);
    button.setAttribute("aria-label", `level ${level.index + 1}, ${level.width} by ${level.height}, ${done ? "solved" : "unsolved"}`);
    button.onclick = () => openLevel(level.index);
    box.appendChild(button);
  }
  $("level-at").textContent = pack.current >= 0 ? `level ${pack.current + 1} of ${pack.total}` : "";
  $("prev-level").disabled = pack.current <= 0; $("next-level").disabled = pack.current >= pack.total - 1;
  $("more-levels").hidden = pack.levels.length >= pack.total;
}

async function openLevel(index) {
  if (index < 0 || index >= pack.total) return;
  while (index >= pack.levels.length) if (!await moreLevels()) return;
  const level = pack.levels[index];
  if (play.on) stopPlay();
  pack.current = index; $("rules").value = level.rules;
  setText(level.text); markClean();
  status(`${pack.name}: level ${index + 1} of ${pack.total}`);
  drawLevels();
}
$("prev-level").onclick = () => openLevel(pack.current - 1);
$("next-level").onclick = () => openLevel(pack.current + 1);
$("more-levels").onclick = () => moreLevels();
$("close-pack").onclick = () => { Object.assign(pack, { name: null, text: null, total: 0, levels: [], current: -1 }); $("pack").hidden = true; };

(async function start() {
  for (const l of LABELS) { const o = document.createElement("option"); o.textContent = l; $("label").appendChild(o); }
  const { ok, data } = await call("/api/file", null, "GET");
  if (ok) { state.file = data.path; $("file").textContent = data.path; $("save").disabled = false; }
  if (ok && data.text.trim()) setText(data.text, false);
  else { const t = await call("/api/new", { family: "standard", width: 5, height: 5 }); setText(t.data.text, false); }
  markClean();
  const shared = sharedBoard();
  if (shared) { $("rules").value = shared.rules; setText(shared.text); status("opened the board of a shared link"); }
})();

// -- play: draw paths by dragging, as in the game ---------------------------------------------------
const play = { on: false, board: null, paths: {}, drawing: null, adj: new Map(), bridges: new Set(), centre: {},
               moves: 0, lastMoved: null, undo: [], started: 0, timer: null, solved: false };

// The API gives every position as [line, column]; play keys cells by "line:column" strings.
const key = ([line, column]) => `${line}:${column}`;
const cellOf = (k) => k.split(":").map(Number);
function playBoard(data) {
  return { ...data, endpoints: Object.fromEntries(data.endpoints.map((e) => [key(e.cell), e.label])),
           links: data.links.map(([u, v, axis]) => [key(u), key(v), axis]), bridges: data.bridges.map(key) };
}

function resetPlay() {  // a fresh game on the board shown: no paths, no moves, the clock from zero
  play.paths = {}; play.moves = 0; play.lastMoved = null; play.undo = []; play.solved = false;
  play.started = Date.now();
  clearInterval(play.timer);
  play.timer = setInterval(() => { if (play.on && !play.solved) scoreText(); }, 1000);
}

function startPlay() {
  const b = play.board;
  if (!b) { status("fix the problems first: only a valid board can be played"); return stopPlay(); }
  play.adj = new Map(); play.bridges = new Set(b.bridges);
  for (const [u, v] of b.links) {
    for (const [a, c] of [[u, v], [v, u]]) { if (!play.adj.has(a)) play.adj.set(a, new Set()); play.adj.get(a).add(c); }
  }
  play.centre = {};
  document.querySelectorAll("#board polygon.cell").forEach((poly) => {
    const pts = poly.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
    play.centre[poly.dataset.pos] = [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
  });
  for (const label of Object.keys(play.paths)) if (!Object.values(b.endpoints).includes(label)) delete play.paths[label];
  $("hint").disabled = false;
  drawPlay();
}

function stopPlay() {
  play.on = false; $("play").classList.remove("on"); $("hint").disabled = true; $("restart").disabled = true;
  play.paths = {}; clearInterval(play.timer); $("score").textContent = ""; status(""); scheduleCheck(0);
}

$("play").onclick = () => {
  if (play.on) return stopPlay();
  play.on = true; $("play").classList.add("on"); $("restart").disabled = false; status("play: drag from an endpoint");
  resetPlay();
  startPlay();
};

$("restart").onclick = () => { if (play.on) { resetPlay(); status("play: drag from an endpoint"); drawPlay(); } };

function undoMove() {  // in play, Undo takes back the last stroke
  if (!play.undo.length) return;
  play.paths = play.undo.pop(); play.solved = false; status(""); drawPlay();
}

function cellAt(ev) {
  const el = document.elementFromPoint(ev.clientX, ev.clientY);
  const cell = el && el.closest && el.closest("polygon.cell");
  return cell ? cell.dataset.pos : null;
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
  play.solved = false; status("");  // any change clears "solved!"
  if (play.board.endpoints[pos]) { play.paths[label] = [pos]; cutAt(pos, label); }
  else { const path = play.paths[label]; path.length = path.indexOf(pos) + 1; }
  play.drawing = label;
  drawPlay();
});

document.addEventListener("pointermove", (ev) => {
  if (!play.drawing) return;
  const pos = cellAt(ev), label = play.drawing, path = play.paths[label];
  if (!pos || pos === path[path.length - 1]) return;
  const at = path.indexOf(pos);
  if (at >= 0 && !play.bridges.has(pos)) { path.length = at + 1; return drawPlay(); }
  const last = path[path.length - 1];
  if (!play.adj.get(last) || !play.adj.get(last).has(pos)) return;  // only along a link
  if (joined(label)) return;
  const end = play.board.endpoints[pos];
  if (end && end !== label) return;  // another flow's endpoint
  cutAt(pos, label);
  path.push(pos);
  drawPlay();
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
      const cell = svg.querySelector(`polygon.cell[data-pos="${pos}"]`);
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
  return { all: labels.every(joined) && (filled.size === cells || play.board.rules === "numberlink") };
}

async function scorePlay() {
  if (!scoreText().all) return;
  const paths = Object.fromEntries(Object.entries(play.paths).map(([label, path]) => [label, path.map(cellOf)]));
  const { data } = await call("/api/verify", { text: $("text").value, paths });
  play.solved = !!data.solved;  // only the verifier says "solved!"
  if (play.solved) rememberSolved($("text").value);
  status(data.solved ? "solved!" : "not yet: " + (data.problems || [])[0]);
}

$("hint").onclick = async () => {
  const labels = [...new Set(Object.values(play.board.endpoints))].filter(joined);
  $("hint").disabled = true;  // one hint at a time: a second click would ask for the same flow
  const { ok, data } = await call("/api/hint", { text: $("text").value, done: labels });
  $("hint").disabled = !play.on;
  if (!ok || !data.label) return status(ok ? "every flow is joined" : data.error);
  const path = data.path.map(key);
  for (const pos of path) cutAt(pos, data.label);
  play.paths[data.label] = path;
  drawPlay(); scorePlay();
};

document.addEventListener("keydown", (ev) => {  // P plays, unless the key is typed into a field or a list
  if (ev.key === "p" && !ev.ctrlKey && !ev.target.closest("input, select, textarea") &&
      (play.on || !ev.target.closest("#board"))) $("play").click();  // on the board, p is a label while editing
});
