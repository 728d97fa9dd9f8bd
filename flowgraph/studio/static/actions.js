// The buttons and shortcuts: new, generate, unique, solve (with its replay), save, open, export.
import { $, answerStatus, call, constants, download, fromBase64, markClean, rules, scheduleCheck, setText, state, status, toBase64 } from "./page.js";
import { openPack } from "./levels.js";
import { play, undoMove } from "./play.js";


async function poll(job) {
  const { data } = await call(`/api/solve/${job}`, null, "GET");
  if (state.job !== job) return;
  if (data.status === "running") {
    status("solving…");
    return setTimeout(() => poll(job), 150);
  }
  $("stop").disabled = true; state.job = null;
  if (data.status === "unsolvable") return noSolution(data.why);
  if (data.status !== "solved") return answerStatus(data.status === "cancelled" ? "stopped" : data.status + (data.message ? ": " + data.message : ""));
  const [n, unit] = data.stats.states !== undefined ? [data.stats.states, "state"] : [data.stats.sat_calls, "SAT call"];
  const work = `${n} ${unit}${n === 1 ? "" : "s"}`;
  answerStatus(data.building ? `solved by SAT in ${data.stats.seconds.toFixed(3)} s while the studio builds the search ` +
                               `engine (${constants.build_note}); Solve replays the search once it is built`
                             : `solved in ${data.stats.seconds.toFixed(3)} s, ${work}`);
  replay(data.frames);
}

function noSolution(why) {  // why, where the author looks: the cells, or the flows' endpoints, outlined
  answerStatus("no solution" + (why ? ": " + why.text : ""));
  for (const [line, column] of why ? why.marks : []) {
    document.querySelector(`#board polygon[data-cell="${line}:${column}"]`)?.classList.add("problem");
  }
}

function replay(frames) {  // the search's states, then the answer; Play stops it (the player starts on the bare board)
  let i = 0;
  const show = () => {
    if (play.on) return;
    $("board").innerHTML = frames[i]; if (++i < frames.length) setTimeout(show, 80);
  };
  show();
}


async function openPicture(file) {  // a screenshot: the scanner reads the board
  status(`scanning ${file.name}…`);
  const { ok, data } = await call("/api/scan", { image: toBase64(new Uint8Array(await file.arrayBuffer())) });
  if (!ok) return status(`${file.name}: ${data.error}`);
  setText(data.text);
  status(`scanned ${file.name}: ${data.summary}`);
}

// Every page-wide shortcut in one table (the board's own keys, the cursor and labels, are board.js's): the key,
// whether Ctrl (or Cmd) is held, the button it presses, where it does not apply (a field has its own undo, and
// P is a label on the board while editing).
const SHORTCUTS = [
  { key: "Enter", ctrl: true, button: "solve" },
  { key: "Escape", ctrl: false, button: "stop" },
  { key: "s", ctrl: true, button: "save" },
  { key: "z", ctrl: true, button: "undo", notIn: "#text" },
  { key: "y", ctrl: true, button: "redo", notIn: "#text" },
  { key: "p", ctrl: false, button: "play", notIn: "input, select, textarea", when: (ev) => play.on || !ev.target.closest?.("#board") },
];

// The buttons' handlers and the page-wide shortcuts.
export function wireActions() {
  $("new").onclick = async () => {
    const { ok, data } = await call("/api/new", { family: $("family").value, width: +$("width").value, height: +$("height").value });
    if (!ok) return status(data.error);
    setText(data.text); status("");
  };
  $("generate").onclick = async () => {
    status("generating…");
    const { ok, data } = await call("/api/generate", { family: $("family").value, width: +$("width").value,
      height: +$("height").value, seed: Math.floor(Math.random() * 1e6), rules: rules() });
    if (!ok) return status(data.error);
    setText(data.text); status(`generated: unique, ${data.figures.flows} flows`);
  };
  $("unique").onclick = async () => {
    status("counting solutions…");
    const { ok, data } = await call("/api/count", { text: $("text").value, time_limit_s: +$("limit").value, rules: rules() });
    if (!ok) return status(data.error);
    const words = { unique: "unique solution", multiple: `several solutions (they differ in ${data.differ.length} cells)`,
                    none: "no solution", limit: "gave up: the time limit ran out" };
    answerStatus(words[data.verdict]);
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

  $("solve").onclick = async () => {
    const { ok, status: code, data } = await call("/api/solve", { text: $("text").value, time_limit_s: +$("limit").value, rules: rules() });
    if (!ok) return status(data.error || `error ${code}`);
    state.job = data.job; $("stop").disabled = false; status("solving…");
    poll(data.job);
  };

  $("rules").onchange = () => scheduleCheck(0);  // the badge, play's "solved!" and every answer follow the rules
  $("stop").onclick = async () => { if (state.job) { await call(`/api/solve/${state.job}/stop`, {}); status("stopping…"); } };
  $("undo").onclick = () => { if (play.on) return undoMove(); if (state.history.length) { state.future.push($("text").value); setText(state.history.pop(), false); } };
  $("redo").onclick = () => { if (state.future.length) { state.history.push($("text").value); setText(state.future.pop(), false); } };
  $("save").onclick = async () => {
    // a board that came in by a link (another page may have made it) overwrites FILE only once the user says so
    if (state.fromLink && !confirm(`This board came from a shared link, not from ${state.file}. Overwrite ${state.file} with it?`)) {
      status("not saved: the board came from a link"); return;
    }
    const { ok, data } = await call("/api/save", { text: $("text").value });
    if (ok) state.fromLink = false;
    if (ok) markClean();
    status(ok ? `saved ${data.saved}` : data.error);
  };
  $("upload").onchange = async (ev) => {  // any format convert reads, or a screenshot; edited as neighbor-link text
    const file = ev.target.files[0];
    if (!file) return;
    if (file.type.startsWith("image/")) return openPicture(file);
    const text = await file.text();
    if (await openPack(file.name, text)) return;  // many puzzles: the level browser
    const { ok, data } = await call("/api/convert", { text, to: "neighbor-link" });  // the file's own rules
    if (ok) $("rules").value = data.rules;  // a numlin URL is a Numberlink puzzle; the text cannot say so
    setText(ok ? data.text : text);
    status(ok ? `opened ${file.name}` + (ok && data.rules === "numberlink" ? " (Numberlink rules: cells may stay empty)" : "")
              : `${file.name}: ${data.error}`);
  };

  document.querySelectorAll("[data-export]").forEach((button) => button.onclick = async () => {
    const kind = button.dataset.export, text = $("text").value;
    if (kind === "txt") return download("board.txt", new Blob([text], { type: "text/plain" }));
    if (kind === "json") {
      const { ok, data } = await call("/api/convert", { text, to: "json-graph", rules: rules() });
      return ok ? download("board.json", new Blob([data.text], { type: "application/json" })) : status(data.error);
    }
    const solution = $("export-solution").checked, name = solution ? "solution" : "board";
    if (solution) status("solving for the picture…");
    const { ok, data } = await call("/api/render", { text, png: kind === "png", solution, cell_px: +$("export-size").value,
                                                    time_limit_s: +$("limit").value, rules: rules() });
    if (!ok) return status(data.error);
    status(`exported ${name}.${kind}`);
    if (kind === "svg") return download(`${name}.svg`, new Blob([data.svg], { type: "image/svg+xml" }));
    download(`${name}.png`, new Blob([fromBase64(data.png)], { type: "image/png" }));
  });

  document.addEventListener("keydown", (ev) => {
    const ctrl = ev.ctrlKey || ev.metaKey;
    const hit = SHORTCUTS.find((s) => s.key === ev.key && s.ctrl === ctrl && !(s.notIn && ev.target.closest?.(s.notIn))
                                      && (!s.when || s.when(ev)));
    if (!hit) return;
    if (hit.ctrl) ev.preventDefault();  // the browser's own Ctrl+S, Ctrl+Z ...
    $(hit.button).click();
  });
}
