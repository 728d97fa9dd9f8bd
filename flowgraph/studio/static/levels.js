import { $, call, markClean, setText, status } from "./page.js";
import { play, stopPlay } from "./play.js";

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
export function rememberSolved(text) {
  const solved = solvedBoards();
  solved.add(boardKey(text));
  try { localStorage.setItem("flowgraph.solved", JSON.stringify([...solved].slice(-5000))); } catch { /* storage full or off */ }
  if (pack.total) drawLevels();
}

export async function openPack(name, text) {  // true when the text holds several puzzles and the browser shows them
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

