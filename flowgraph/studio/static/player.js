// A published pack's page (flowgraph convert PACK -o pack.html): the levels in order, played with game.js;
// "Solved!" checked here from each board's graph; progress kept in this browser's storage. No server, no network.
"use strict";
(function () {
  const { Game, bindKeys, bindPointer } = globalThis.FlowGame;
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("levels").textContent), levels = data.levels;
  const page = { at: 0, game: null, solved: false };
  const saved = (name, fallback) => { try { return JSON.parse(localStorage.getItem(name)) ?? fallback; } catch { return fallback; } };
  const keep = (name, value) => { try { localStorage.setItem(name, JSON.stringify(value)); } catch { /* storage off or full */ } };
  const SOLVED = "flowgraph.page.solved", AT = `flowgraph.page.at.${levels[0].key}.${levels.length}`;
  const solved = new Set(saved(SOLVED, []));

  function options() {  // the level list: each with ✓ once solved in this browser
    $("level").replaceChildren(...levels.map((level, i) => {
      const o = new Option(`${i + 1}${solved.has(level.key) ? " ✓" : ""}`, String(i));
      o.title = level.name;
      return o;
    }));
    $("level").value = String(page.at);
  }

  function open(i) {
    page.at = Math.max(0, Math.min(levels.length - 1, i));
    const level = levels[page.at];
    $("board").innerHTML = level.svg;  // drawn by flowgraph when the page was made
    page.game = new Game(level.board); page.solved = false;
    page.game.draw($("board").querySelector("svg"));
    $("level").value = String(page.at); $("prev").disabled = page.at === 0; $("next").disabled = page.at === levels.length - 1;
    $("fills").hidden = level.board.fills_every_cell === false;
    $("solved").hidden = true;
    document.title = `${data.title} · ${page.at + 1} of ${levels.length}`;
    keep(AT, page.at);
    score();
  }

  function score() {
    if (!page.game) return;
    const s = page.game.score();
    $("score").textContent = `flows ${s.joined}/${s.flows} · moves ${s.moves} · ${s.clock}`;
    $("undo").disabled = page.solved || !page.game.history.length;  // a solved level is done: Restart plays it again
  }

  function changed() {
    if (page.solved) return;
    page.game.draw($("board").querySelector("svg"));
    score();
  }

  function released() {
    changed();
    if (page.solved || !page.game.score().complete || !page.game.verify()) return;
    page.solved = true; page.game.solvedAt = Date.now(); page.game.cursor = null;
    page.game.draw($("board").querySelector("svg"));
    solved.add(levels[page.at].key); keep(SOLVED, [...solved].slice(-20000)); options();
    $("figures").textContent = `${page.game.moves} moves · ${page.game.clock()}`;
    $("solved-next").hidden = page.at === levels.length - 1;
    $("solved").hidden = false;
    score();
  }

  const playing = () => (page.solved ? null : page.game);
  bindPointer($("board"), playing, changed, released);
  bindKeys($("board"), playing, changed, released);
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "SELECT") return;
    if ((ev.key === "z" && (ev.ctrlKey || ev.metaKey)) || (ev.key === "u" && !ev.ctrlKey)) { ev.preventDefault(); $("undo").click(); }
    else if (ev.key === "r" && !ev.ctrlKey && !ev.metaKey) $("restart").click();
  });
  $("undo").onclick = () => { if (!page.solved && page.game.undo()) changed(); };
  $("restart").onclick = () => { page.game.restart(); page.solved = false; $("solved").hidden = true; changed(); };
  $("prev").onclick = () => open(page.at - 1);
  $("next").onclick = () => open(page.at + 1);
  $("solved-next").onclick = () => { open(page.at + 1); $("board").focus(); };
  $("level").onchange = () => open(Number($("level").value));
  setInterval(() => { if (!page.solved) score(); }, 1000);
  page.at = Number(saved(AT, 0)) || 0;
  options();
  open(page.at);
})();
