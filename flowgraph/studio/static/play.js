import { $, call, constants, rules, status, scheduleCheck } from "./page.js";

// -- play: draw paths by dragging, as in the game ---------------------------------------------------
// The rules of play are game.js's (FlowGame), shared with a published pack's page. This module wires them to the
// studio: the page has two modes, editing and play (play.on); the board's handlers ask it, each for its own gesture.
const { Game, bindKeys, bindPointer } = globalThis.FlowGame;
export const play = { on: false, board: null, game: null, timer: null, solved: false };

let solvedHook = () => {};
// What happens when a board is solved by play, besides "solved!" (the level browser remembers it).
export function onSolved(fn) { solvedHook = fn; }
// The board the player plays: the checked board (or null), set by the board module after every check.
export function setPlayBoard(data) {
  const fills = constants.rules.find((r) => r.name === (data && data.rules))?.fills_every_cell ?? true;
  play.board = data ? { ...data, fills_every_cell: fills } : null;
}

const svg = () => document.querySelector("#board svg");

function resetPlay() {  // a fresh game on the board shown: no paths, no moves, the clock from zero
  play.game = null; play.solved = false; $("solved").hidden = true;
  clearInterval(play.timer);
  play.timer = setInterval(() => { if (play.on && !play.solved && play.game) scoreText(); }, 1000);
}

export function startPlay() {  // the game on the board just drawn: the paths so far kept where the board allows them
  const b = play.board;
  if (!b) { status("fix the problems first: only a valid board can be played"); return stopPlay(); }
  const before = play.game, same = (g) => JSON.stringify([g.endpoints, g.links, g.rules]);
  if (before && same(before.board) === same(b)) {  // the same board drawn again: play goes on, a stroke too
    before.board = b; before.centre = {};
    $("hint").disabled = false;
    return drawPlay();
  }
  const game = new Game(b);
  if (before) {
    Object.assign(game, { moves: before.moves, lastMoved: before.lastMoved, started: before.started, history: before.history });
    for (const [label, path] of Object.entries(before.paths)) if (game.labels.includes(label)) game.paths[label] = path;
  }
  play.game = game;
  $("hint").disabled = false;
  drawPlay();
}

export function stopPlay() {
  play.on = false; $("play").classList.remove("on"); $("play").textContent = "Play"; document.body.classList.remove("playing"); $("board").classList.remove("playing");
  $("hint").disabled = true; $("restart").disabled = true;
  play.game = null; clearInterval(play.timer); $("score").textContent = ""; $("solved").hidden = true; status("");
  scheduleCheck(0);
}


export function beginPlay() {  // play the board shown, from a fresh start
  play.on = true; $("play").classList.add("on"); $("play").textContent = "✎ Edit"; document.body.classList.add("playing"); $("board").classList.add("playing");
  $("restart").disabled = false; status("play: drag from an endpoint");
  resetPlay();
  if (play.board) startPlay();  // (else the check of a board just opened hands play its board)
  // a solve's answer may be drawn on it: the player starts from the bare board (the check draws it, then play again)
  if (document.querySelector("#board g.pipe")) scheduleCheck(0);
}


export function undoMove() {  // in play, Undo takes back the last stroke, and its move
  if (!play.game || !play.game.undo()) return;
  play.solved = false; $("solved").hidden = true; status(""); light([]); lastWrong = null; drawPlay();
}

const playing = () => (play.on ? play.game : null);
const changed = () => {
  if (play.solved) { play.solved = false; $("solved").hidden = true; status(""); }  // any change clears "solved!"
  drawPlay();
};

function drawPlay() {
  if (svg() && play.game) play.game.draw(svg());
  $("play-undo").disabled = !(play.game && play.game.history.length);  // nothing to take back: says so
  scoreText();
}

function scoreText() {
  if (!play.game) return { complete: false };
  const s = play.game.score();
  $("score").textContent = `flows ${s.joined}/${s.flows} · cells ${s.filled}/${s.cells} · moves ${s.moves} · ${s.clock}`;
  return s;
}

async function scorePlay() {
  if (!scoreText().complete) return;
  const { ok, data } = await call("/api/verify", { text: $("text").value, paths: play.game.pathsAsCells(), rules: rules() });
  if (!ok) return status(`not checked: ${data.error || "the studio did not answer"}`);  // never "not yet: undefined"
  play.solved = !!data.solved;  // only the verifier says "solved!"
  if (!play.solved) return status("not yet: " + (data.problems || [])[0]);
  play.game.solvedAt = Date.now();
  status(""); light([]);  // the banner says it, as the game does, with the figures of the game
  $("solved-figures").textContent = $("score").textContent.replace(/^flows \S+ · cells \S+ · /, "");
  $("solved").hidden = false;
  solvedHook($("text").value);
}

// A cell as every message names it: r3c5, its row and column as the board's rulers number them (the server's
// words, explain's and the verifier's, say the same).
function named(pos) {
  const cell = document.querySelector(`#board polygon.cell[data-cell="${pos}"]`);
  if (!cell) return pos;
  const [x, y] = cell.dataset.xy.split(",").map(Number);
  return `r${y + 1}c${x + 1}`;
}
const pipe = (label) => `the ${(play.board.names || {})[label] || "flow " + label} pipe`;
const light = (cells) => {
  document.querySelectorAll("#board polygon.hint").forEach((c) => c.classList.remove("hint"));
  for (const pos of cells) document.querySelector(`#board polygon.cell[data-cell="${pos}"]`)?.classList.add("hint");
};
let lastWrong = null;  // a pipe said to leave the solution: a second Hint on the same drawing redraws it

// Play's handlers: Play and Edit, Restart, Undo, the pointer and keys on the board, Hint.
export function wirePlay() {
  $("play").onclick = () => (play.on ? stopPlay() : beginPlay());

  $("restart").onclick = () => {
    if (!play.on || !play.game) return;
    play.game.restart(); play.solved = false; $("solved").hidden = true; light([]); lastWrong = null;
    status("play: drag from an endpoint"); drawPlay();
  };

  $("play-undo").onclick = () => undoMove();

  bindPointer($("board"), playing, changed, () => scorePlay());
  bindKeys($("board"), playing, changed, () => scorePlay());

  $("hint").onclick = async () => {
    const game = play.game;
    if (!game) return;
    const labels = game.labels.filter((l) => game.joined(l));
    $("hint").disabled = true;  // one hint at a time: a second click would ask for the same flow
    status("thinking…");
    // what the player has drawn: the hint is the next step from there, as a person would take it
    const drawn = game.pathsAsCells();
    const { ok, data } = await call("/api/hint", { text: $("text").value, done: labels, paths: drawn, rules: rules() });
    $("hint").disabled = !play.on;
    if (!ok || !data.label) return status(ok ? "every flow is joined" : data.error);
    if (game !== play.game) return status("");  // the board changed meanwhile
    const key = ([line, column]) => `${line}:${column}`;
    if (data.wrong) {  // first say which pipe cannot go on, where; the player may mend it, or ask again
      const said = JSON.stringify([data.wrong, drawn]);
      if (lastWrong !== said) {
        lastWrong = said;
        light([key(data.wrong)]);
        return status(`hint: ${pipe(data.label)} cannot pass here (${named(key(data.wrong))}); Hint again redraws it`);
      }
    }
    lastWrong = null;
    game.setPath(data.label, data.path.map(key));
    drawPlay(); await scorePlay();
    if (play.solved) return;
    if (data.wrong) return status(`hint: ${pipe(data.label)}, redrawn as the solution has it`);
    const where = `${named(data.path.map(key)[0])} to ${named(data.path.map(key).at(-1))}`;
    status(`hint: ${pipe(data.label)}, ${where}` + (data.technique ? ` (${data.technique}, tier ${data.tier}): ${data.note}` : ""));
    light((data.cells || []).map(key));  // why, as a person would see it: the cells of the technique lit
  };
}
