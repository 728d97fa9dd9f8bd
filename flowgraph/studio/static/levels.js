import { $, call, markClean, setText, state, status } from "./page.js";
import { beginPlay, onSolved, play, stopPlay } from "./play.js";

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
// play tells the level browser (it imports nothing from here); a solved level offers the next one, in play
onSolved((text) => { rememberSolved(text); $("solved-next").hidden = !(pack.total && pack.current < pack.total - 1); });
$("solved-next").onclick = () => openLevel(pack.current + 1, true);
export function rememberSolved(text) {
  const solved = solvedBoards();
  solved.add(boardKey(text));
  try { localStorage.setItem("flowgraph.solved", JSON.stringify([...solved].slice(-5000))); } catch { /* storage full or off */ }
  if (pack.total) drawLevels();
}

export async function openPack(name, text) {  // true when the text holds several puzzles and the browser shows them
  const { ok, data } = await call("/api/levels", { text, name });
  if (!ok || data.total < 2) return false;
  Object.assign(pack, { name, text, total: data.total, levels: data.levels, current: -1 });
  showBrowser(`${name}: ${data.total} levels`);
  await openLevel(0, phone());
  return true;
}

// A folder: every puzzle file in it (packs contribute all their levels), one level browser. ``files`` are
// the page's File objects or the server's {name, text} (the studio started with a folder).
const MAX_FOLDER_FILES = 500, MAX_FOLDER_LEVELS = 2000;
export async function openFolder(files, folder = null) {
  const chosen = [...files].filter((f) => !(f.type || "").startsWith("image/")).sort((a, b) => a.name.localeCompare(b.name));
  const levels = [];
  status(`reading ${Math.min(chosen.length, MAX_FOLDER_FILES)} files…`);
  for (const file of chosen.slice(0, MAX_FOLDER_FILES)) {
    const text = typeof file.text === "string" ? file.text : await file.text();
    for (let offset = 0; levels.length < MAX_FOLDER_LEVELS;) {
      const { ok, data } = await call("/api/levels", { text, name: file.name, offset });
      if (!ok || !data.levels.length) break;
      for (const level of data.levels) levels.push({ ...level, name: data.total > 1 ? `${file.name} #${level.index + 1}` : file.name });
      offset += data.levels.length;
      if (offset >= data.total) break;
    }
  }
  if (!levels.length) { status("no puzzle in that folder"); return false; }
  levels.forEach((level, i) => { level.index = i; });
  folder = folder || (chosen[0].webkitRelativePath || "").split("/")[0] || "folder";
  Object.assign(pack, { name: folder, text: null, total: levels.length, levels, current: -1 });
  showBrowser(`${folder}: ${levels.length} levels`);
  await openLevel(0, phone());
  return true;
}
$("upload-folder").onchange = (ev) => { if (ev.target.files.length) openFolder(ev.target.files); };

// A phone held upright opens a pack to play it: the board fills the screen, the authoring controls one tap away.
const phone = () => matchMedia("(max-width: 700px)").matches;

function showBrowser(title) {  // on a phone the file picker is at the bottom: bring the browser into view
  $("pack").hidden = false; $("pack-name").textContent = title;
  $("pack").scrollIntoView({ block: "start" });
}

async function moreLevels() {
  if (!pack.text) return false;  // a folder's levels are all read at once
  const { ok, data } = await call("/api/levels", { text: pack.text, name: pack.name, offset: pack.levels.length });
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

export async function openLevelNumber(number) {  // FILE was PACK#N: level N (from 1) first, or why there is none
  if (number >= 1 && number <= pack.total) { await openLevel(number - 1); return true; }
  status(`${pack.name} holds ${pack.total} level${pack.total === 1 ? "" : "s"}: there is no #${number}`);
  return false;
}

async function openLevel(index, playing = play.on) {  // the next level of one being played is played too
  if (index < 0 || index >= pack.total) return;
  while (index >= pack.levels.length) if (!await moreLevels()) return;
  const level = pack.levels[index];
  if (play.on && !playing) stopPlay();
  pack.current = index; $("rules").value = level.rules;
  // opening a level is a move in the browser, not an edit: Undo must not bring back the board before it
  state.history = []; state.future = [];
  setText(level.text, false); markClean();
  if (playing) beginPlay();  // a fresh game; the check of the new text hands play its board
  status(`${pack.name}: level ${index + 1} of ${pack.total}` + (level.name && !pack.text ? ` (${level.name})` : "") +
         (playing ? " · play: drag from an endpoint" : ""));
  drawLevels();
}
$("prev-level").onclick = () => openLevel(pack.current - 1);
$("next-level").onclick = () => openLevel(pack.current + 1);
$("more-levels").onclick = () => moreLevels();
$("close-pack").onclick = () => { Object.assign(pack, { name: null, text: null, total: 0, levels: [], current: -1 }); $("pack").hidden = true; };

