// flowgraph's player: paths drawn by dragging, as in the game. One classic script shared by the studio
// (served beside its modules) and by a published pack (inlined in one HTML page with no server), so both
// play by the same rules. It knows a board only as a graph: cells keyed "line:column", links with the
// lane axis of a bridge they enter, the bridges, the endpoints; hex, warps and holes change only those.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const key = ([line, column]) => `${line}:${column}`;
  // A quick drag skips cells between two pointer events: the game fills them in, along the board's links.
  const MAX_SKIP = 12;

  class Game {
    // ``board``: {endpoints: [{cell, label}], links: [[cell, cell, axis, warp(, [lane, lane])]], bridges: [cell], over (the lanes
    // [line, column, axis] drawn over their bridge), colours, rims, cells (every cell and bridge lane to fill),
    // fills_every_cell}; a cell is [line, column].
    constructor(board) {
      this.board = board;
      this.ends = Object.fromEntries(board.endpoints.map((e) => [key(e.cell), e.label]));
      this.labels = [...new Set(board.endpoints.map((e) => e.label))];
      this.bridges = new Set((board.bridges || []).map(key));
      this.over = board.over ? new Set(board.over.map(([line, column, axis]) => `${line}:${column}@${axis}`)) : null;
      this.adj = new Map(); this.lane = new Map(); this.warps = new Set();
      this.warpsGiven = board.links.some((link) => link.length > 3);  // else told by length, as before
      for (const [u, v, axis, warp, ends] of board.links) {
        const a = key(u), b = key(v);
        // the lane at each end (two bridges of a shape's crossing: each its own angle), else the link's axis
        const [atU, atV] = ends || [axis, axis];
        this.lane.set(`${a}|${b}`, atU); this.lane.set(`${b}|${a}`, atV);
        for (const [p, q] of [[a, b], [b, a]]) {
          if (!this.adj.has(p)) this.adj.set(p, new Set());
          this.adj.get(p).add(q);
          if (warp) this.warps.add(`${p}|${q}`);
        }
      }
      this.centre = {};
      this.restart();
    }

    restart() {  // a fresh game: no paths, no moves, the clock from zero
      this.paths = {}; this.drawing = null; this.moves = 0; this.lastMoved = null; this.history = [];
      this.started = Date.now(); this.solvedAt = null;
    }

    seconds() { return Math.floor(((this.solvedAt || Date.now()) - this.started) / 1000); }
    clock() { const s = this.seconds(); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; }

    owner(pos) {  // the flow whose path holds ``pos`` (on a bridge: the first of the two)
      for (const [label, path] of Object.entries(this.paths)) if (path.includes(pos)) return label;
      return null;
    }

    joined(label) {
      const path = this.paths[label] || [];
      return path.length > 1 && this.ends[path[0]] === label && this.ends[path[path.length - 1]] === label;
    }

    // The lane a path takes through a bridge: the lane at the bridge's end of the link it enters by (crossed straight).
    laneOf(path, i) { return i > 0 ? this.lane.get(`${path[i]}|${path[i - 1]}`) : null; }
    // The lane of bridge ``p`` that its link to ``q`` runs on.
    laneTo(p, q) { return this.lane.get(`${p}|${q}`); }

    cut(pos, except, lane = null) {  // crossing a path cuts it; on a bridge only a path on the same lane
      for (const [label, path] of Object.entries(this.paths)) {
        for (let i = 0; i < path.length; i++) {
          if (path[i] !== pos || (label === except && lane === null)) continue;
          if (this.bridges.has(pos) && this.laneOf(path, i) !== lane) continue;
          if (label === except && i === path.length - 1) continue;  // (the head itself)
          path.length = i;
          break;
        }
      }
    }

    press(pos) {  // a stroke starts at an endpoint or on a path; true when it did
      const label = this.ends[pos] || (this.bridges.has(pos) ? null : this.owner(pos));
      if (!label) return false;
      this.remember();  // each stroke can be taken back, its move too
      this.before = JSON.parse(JSON.stringify(this.paths));  // the pipes as the stroke found them (recut)
      if (label !== this.lastMoved) { this.moves += 1; this.lastMoved = label; }  // the game's moves: a new flow picked up
      this.solvedAt = null;
      if (this.ends[pos]) { this.paths[label] = [pos]; this.cut(pos, label); }
      else { const path = this.paths[label]; path.length = path.indexOf(pos) + 1; }
      this.drawing = label; this.suspended = false;
      return true;
    }

    step(label, pos) {  // the path one cell further, along a link; false where the game refuses the move
      const path = this.paths[label], last = path[path.length - 1];
      if (!this.adj.get(last) || !this.adj.get(last).has(pos) || this.joined(label)) return false;
      const end = this.ends[pos];
      if (end && end !== label) return false;  // another flow's endpoint
      // out of a bridge straight on: the lane it came in by
      if (this.bridges.has(last) && path.length > 1 && this.laneOf(path, path.length - 1) !== this.laneTo(last, pos)) {
        return false;
      }
      if (this.bridges.has(pos)) {
        const lane = this.laneTo(pos, last);
        const beyond = [...this.adj.get(pos)].some((n) => n !== last && this.laneTo(pos, n) === lane);
        if (!beyond) return false;
        this.cut(pos, label, lane);
      } else this.cut(pos, label);
      path.push(pos);
      return true;
    }

    // The cells after ``from`` up to ``to`` by the fewest links (straight over bridges), or null beyond MAX_SKIP.
    route(from, to, label) {
      const own = new Set(this.paths[label]), path = this.paths[label];
      const start = { cell: from, lane: this.bridges.has(from) ? this.laneOf(path, path.length - 1) : null };
      const seen = new Set([`${from}@${start.lane}`]), before = new Map();
      let frontier = [start];
      for (let depth = 0; depth < MAX_SKIP && frontier.length; depth++) {
        const next = [];
        for (const at of frontier) {
          for (const n of this.adj.get(at.cell) || []) {
            if (at.lane && this.laneTo(at.cell, n) !== at.lane) continue;  // straight on out of a bridge
            const lane = this.laneTo(n, at.cell);
            if (n !== to && (this.ends[n] || own.has(n))) continue;  // an endpoint ends a path; its own cells would loop
            const state = { cell: n, lane: this.bridges.has(n) ? lane : null }, id = `${n}@${state.lane}`;
            if (seen.has(id)) continue;
            seen.add(id); before.set(state, at);
            if (n === to) {
              const cells = [];
              for (let s = state; s !== start; s = before.get(s)) cells.unshift(s.cell);
              return cells;
            }
            next.push(state);
          }
        }
        frontier = next;
      }
      return null;
    }

    drag(pos) {  // the pointer over ``pos`` while drawing; true when the board changed
      const label = this.drawing;
      if (!label || !pos) return false;
      const path = this.paths[label], last = path[path.length - 1];
      if (this.suspended) { this.suspended = pos !== last; return false; }  // through a warp: on from the head
      if (pos === last) return false;
      const at = path.indexOf(pos);
      if (at >= 0 && !this.bridges.has(pos)) { path.length = at + 1; this.recut(); return true; }  // back: shorter
      const cells = this.adj.get(last) && this.adj.get(last).has(pos) ? [pos] : this.route(last, pos, label) || [];
      let moved = false;
      for (const cell of cells) { if (!this.step(label, cell)) break; moved = true; }
      if (moved) this.recut();
      return moved;
    }

    // The other pipes as the stroke found them, each cut where the path now crosses it: a pipe the stroke cut is
    // whole again once the path draws back off it, as the game's pipes are.
    recut() {
      const label = this.drawing, path = label && this.paths[label];
      if (!path || !this.before) return;
      const taken = new Set();  // the path's cells, a bridge's with its lane: one pass each (a long board's)
      path.forEach((cell, i) => taken.add(this.bridges.has(cell) && i > 0 ? `${cell}@${this.laneOf(path, i)}` : cell));
      for (const [other, was] of Object.entries(this.before)) {
        if (other === label) continue;
        const at = was.findIndex((cell, j) => taken.has(this.bridges.has(cell) ? `${cell}@${this.laneOf(was, j)}` : cell));
        this.paths[other] = was.slice(0, at < 0 ? was.length : at);  // (a copy: cut() shortens in place)
      }
    }

    // The pointer off the board at (x, y) (the drawing's units) while drawing: past an edge the head's warp
    // leaves by, the path goes through it, as the game's pipes do; the stroke goes on once the pointer is over
    // the new head (the cells it passes on its way there are not drawn). True when the board changed.
    offEdge(x, y) {
      const path = this.drawing && this.paths[this.drawing];
      if (!path || this.suspended) return false;
      const head = path[path.length - 1], c = this.centre, here = c[head], pitch = this.pitch();
      if (!here) return false;
      const vx = x - here[0], vy = y - here[1], d = Math.hypot(vx, vy);
      if (d < 0.75 * pitch) return false;
      for (const n of this.adj.get(head) || []) {
        if (!c[n]) continue;
        const wx = here[0] - c[n][0], wy = here[1] - c[n][1], w = Math.hypot(wx, wy);  // a warp points back
        if (this.isWarp(head, n, w, pitch) && (vx * wx + vy * wy) / (d * w) > 0.8 && this.drag(n)) {
          this.suspended = true; return true;
        }
      }
      return false;
    }

    release() {
      const was = this.drawing;
      this.drawing = null; this.suspended = false; this.before = null;
      return was !== null;
    }

    remember() { this.history.push(JSON.stringify({ paths: this.paths, moves: this.moves, lastMoved: this.lastMoved })); }

    undo() {  // the last stroke (or hint) taken back, and the move it counted
      if (!this.history.length) return false;
      const was = JSON.parse(this.history.pop());
      Object.assign(this, { paths: was.paths, moves: was.moves, lastMoved: was.lastMoved, solvedAt: null });
      return true;
    }

    setPath(label, path) {  // a whole path (a hint): the paths it crosses are cut
      this.remember();
      delete this.paths[label];
      for (let i = 0; i < path.length; i++) {
        const lane = this.bridges.has(path[i]) && i > 0 ? this.laneOf(path, i) : null;
        this.cut(path[i], label, lane);
      }
      this.paths[label] = path;
    }

    // {flows joined, flows, filled (cells and bridge lanes on a path), cells, moves, clock, complete}
    score() {
      // a path never holds a cell twice, but a bridge it crosses twice (once a lane): its length is what it fills
      const filled = Object.values(this.paths).reduce((n, path) => n + path.length, 0);
      const joined = this.labels.filter((l) => this.joined(l)).length;
      const fills = this.board.fills_every_cell !== false;  // Numberlink (Nikoli): cells may stay empty
      return { joined, flows: this.labels.length, filled, cells: this.board.cells, moves: this.moves, clock: this.clock(),
               complete: joined === this.labels.length && (filled === this.board.cells || !fills) };
    }

    // Whether the paths are a solution, checked from the graph alone (a published page has no server): every
    // flow joined along links, a bridge crossed straight, no cell or lane on two paths, every one filled under
    // Flow Free rules (Numberlink's let cells stay empty).
    verify() {
      const used = new Set();
      for (const label of this.labels) {
        const path = this.paths[label];
        if (!this.joined(label)) return false;
        for (let i = 0; i < path.length; i++) {
          let id = path[i];
          if (i > 0 && !(this.adj.get(path[i - 1]) || new Set()).has(id)) return false;
          if (i > 0 && i < path.length - 1 && this.ends[id]) return false;
          if (this.bridges.has(id)) {
            const lane = this.laneOf(path, i);
            if (!lane || i === path.length - 1 || this.laneTo(id, path[i + 1]) !== lane) return false;
            id += "@" + lane;
          }
          if (used.has(id)) return false;
          used.add(id);
        }
      }
      return this.board.fills_every_cell === false || used.size === this.board.cells;
    }

    // The paths as [line, column] lists, as the studio's API takes them.
    pathsAsCells() {
      return Object.fromEntries(Object.entries(this.paths).map(([l, p]) => [l, p.map((k) => k.split(":").map(Number))]));
    }

    // Cell centres from the drawing (``svg``: the board as render/svg.py draws it).
    measure(svg) {
      this.centre = {};
      svg.querySelectorAll("polygon.cell").forEach((poly) => {
        const pts = poly.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
        this.centre[poly.dataset.cell] = [pts.reduce((s, p) => s + p[0], 0) / pts.length,
                                          pts.reduce((s, p) => s + p[1], 0) / pts.length];
      });
    }

    // Where the keyboard's cursor first shows: the endpoint nearest the top left, as a reader starts.
    firstEnd() { return this.endsInOrder()[0]; }

    endsInOrder() {  // the endpoints as a reader meets them: top to bottom, left to right
      const c = this.centre, at = (k) => (c[k] ? [c[k][1], c[k][0]] : [Infinity, Infinity]);
      return Object.keys(this.ends).sort((a, b) => at(a)[0] - at(b)[0] || at(a)[1] - at(b)[1]);
    }

    // The keyboard's cursor on the next endpoint (``turn`` +1) or the one before (-1), in reading order: any
    // flow can be picked up, whatever the board's shape.
    nextEnd(turn) {
      const order = this.endsInOrder(), at = order.indexOf(this.cursor);
      return order[((at < 0 ? (turn > 0 ? -1 : 0) : at) + turn + order.length) % order.length];
    }

    // The path's last step turned to the next neighbour round the cell before it, clockwise (``turn`` +1) or
    // anticlockwise (-1), skipping those the game refuses: four arrows reach four neighbours, and a shape's cell
    // may have more (a ring's centre, a cube's corner). True when the path changed.
    turn(turn) {
      const label = this.drawing, path = label && this.paths[label];
      if (!path || path.length < 2) return false;
      const head = path[path.length - 1], before = path[path.length - 2], c = this.centre;
      if (!c[head] || !c[before]) return false;
      const angle = (n) => Math.atan2(c[n][1] - c[before][1], c[n][0] - c[before][0]);
      const from = angle(head), round = (a) => ((turn * (a - from)) % (2 * Math.PI) + 2 * Math.PI) % (2 * Math.PI);
      const mine = (n) => this.bridges.has(n) || !this.owner(n) || this.owner(n) === label;  // never cut a pipe
      const others = [...this.adj.get(before)].filter((n) => n !== head && c[n] && !path.includes(n) && mine(n))
        .sort((a, b) => round(angle(a)) - round(angle(b)));
      path.length -= 1;
      for (const n of others) if (this.step(label, n)) { this.recut(); return true; }
      this.step(label, head);
      this.recut();
      return false;
    }

    // The distance between two linked cells' centres (the drawing's cell pitch): the median of the first links
    // (a shape's links differ in length: a ring's centre is farther from its sectors than they are apart).
    pitch() {
      if (this.pitchMemo && this.pitchMemo.centre === this.centre) return this.pitchMemo.value;
      const c = this.centre, lengths = [];
      for (const [u, v, , warp] of this.board.links) {
        const a = c[key(u)], b = c[key(v)];
        if (a && b && !warp) lengths.push(Math.hypot(a[0] - b[0], a[1] - b[1]));
        if (lengths.length >= 200) break;
      }
      lengths.sort((x, y) => x - y);
      const value = lengths.length ? lengths[lengths.length >> 1] : 40;
      this.pitchMemo = { centre: c, value };
      return value;
    }

    // Whether the link from ``p`` to ``q`` (centres ``d`` apart) is a warp: as the board says, or by its length.
    isWarp(p, q, d, pitch) { return this.warpsGiven ? this.warps.has(`${p}|${q}`) : d > 1.8 * pitch; }

    // The cell one step from ``from`` that way on screen (dx, dy): along a link when ``linked`` (a warp's link
    // points back across the board, so it counts the other way round), else the nearest cell that way.
    toward(from, dx, dy, linked) { return this.towardAll(from, dx, dy, linked)[0] || null; }

    // Every cell ``toward`` may choose, best first (a hex cell has two neighbours as far right: the game may
    // refuse the first, another flow's endpoint, and take the second). Of two as much in line (a rhombus's
    // neighbours can lie alike off a key), ``behind`` last, then a cell of a pipe not ``label``'s: a key goes on
    // rather than back, and into a free cell rather than cut a pipe.
    towardAll(from, dx, dy, linked, behind = null, label = null) {
      const c = this.centre, here = c[from], pitch = this.pitch();
      if (!here) return [];
      const scored = [];
      for (const n of linked ? this.adj.get(from) || [] : Object.keys(c)) {
        if (!c[n] || n === from) continue;
        let vx = c[n][0] - here[0], vy = c[n][1] - here[1];
        if (linked && this.isWarp(from, n, Math.hypot(vx, vy), pitch)) { vx = -vx; vy = -vy; }
        const along = vx * dx + vy * dy, across = Math.abs(vx * dy - vy * dx);
        if (along <= 0.2 * (linked ? Math.hypot(vx, vy) : pitch) || (linked && across > along)) continue;
        // along a link: the neighbour most in line with the key (a shape's neighbours lie at any distance);
        // the cursor: the nearest cell that way
        scored.push([linked ? across / along : along + 2 * across, n]);
      }
      const score = (x) => Math.round(x * 1e9);  // (a tie to the last bits: the two lie alike)
      const cuts = (n) => Boolean(label && !this.bridges.has(n) && this.owner(n) && this.owner(n) !== label);
      const last = (n) => 2 * (n === behind) + cuts(n);
      return scored.sort((a, b) => score(a[0]) - score(b[0]) || last(a[1]) - last(b[1])).map(([, n]) => n);
    }

    draw(svg) {  // pipes under the endpoint dots, tints under the grid lines, as the game draws them
      if (!Object.keys(this.centre).length) this.measure(svg);
      let g = svg.querySelector("g.player:not(.tints)"), tints = svg.querySelector("g.tints");
      if (!g) {
        g = document.createElementNS(SVG, "g"); g.setAttribute("class", "player");
        svg.insertBefore(g, svg.querySelector("circle.endpoint"));
        tints = document.createElementNS(SVG, "g"); tints.setAttribute("class", "player tints");
        svg.insertBefore(tints, svg.querySelector("line"));
      }
      g.replaceChildren(); tints.replaceChildren();
      const colours = this.board.colours;
      for (const [label, path] of Object.entries(this.paths)) {  // each cell a flow passes, tinted in its colour
        for (const pos of path) {
          const cell = svg.querySelector(`polygon.cell[data-cell="${pos}"]`);
          if (!cell) continue;
          const tint = document.createElementNS(SVG, "polygon");
          tint.setAttribute("points", cell.getAttribute("points")); tint.setAttribute("class", "tint");
          tint.setAttribute("fill", colours[label]); tint.setAttribute("fill-opacity", "0.3");
          tint.setAttribute("data-flow", label);
          tints.appendChild(tint);
        }
      }
      const c = this.centre, pitch = this.pitch(), width = 0.32 * pitch;
      for (const [label, path] of Object.entries(this.paths)) {
        if (path.length < 2) continue;
        // a warp is not drawn across the board: the pipe leaves by one edge and comes back by the other
        const runs = [[c[path[0]]]];
        for (let i = 1; i < path.length; i++) {
          const [a, b] = [c[path[i - 1]], c[path[i]]];
          if (!a || !b) continue;
          const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
          if (this.isWarp(path[i - 1], path[i], d, pitch)) {
            const [ux, uy] = [(a[0] - b[0]) / d * pitch / 2, (a[1] - b[1]) / d * pitch / 2];
            runs[runs.length - 1].push([a[0] + ux, a[1] + uy]);
            runs.push([[b[0] - ux, b[1] - uy]]);
          }
          runs[runs.length - 1].push(b);
        }
        const rim = this.board.rims && this.board.rims[label];
        for (const run of runs) {
          const points = run.filter(Boolean).map((p) => p.join(",")).join(" ");
          for (const [stroke, w] of rim ? [[rim, width * 1.25], [colours[label], width]] : [[colours[label], width]]) {
            const line = document.createElementNS(SVG, "polyline");  // a colour close to the background: a rim under it
            line.setAttribute("points", points); line.setAttribute("fill", "none"); line.setAttribute("stroke", stroke);
            line.setAttribute("stroke-width", w); line.setAttribute("stroke-linecap", "round");
            line.setAttribute("stroke-linejoin", "round"); line.setAttribute("data-flow", label);
            g.appendChild(line);
          }
        }
      }
      // at a bridge, as render draws it: one lane runs on beneath the deck in its shadow, the other (the board's over
      // lane: - or / unless it says) over it with a thin gap each side, whichever pipe was drawn last
      const over = [], under = [];
      for (const [label, path] of Object.entries(this.paths)) {
        for (let i = 1; i < path.length - 1; i++) {
          if (!this.bridges.has(path[i])) continue;
          const [a, m, b] = [c[path[i - 1]], c[path[i]], c[path[i + 1]]];
          if (!a || !m || !b) continue;
          const half = (p) => { const d = Math.hypot(p[0] - m[0], p[1] - m[1]) || 1;
            return [m[0] + (p[0] - m[0]) / d * pitch / 2, m[1] + (p[1] - m[1]) / d * pitch / 2]; };
          const lane = this.laneOf(path, i);
          ((this.over ? this.over.has(`${path[i]}@${lane}`) : ["-", "/"].includes(lane)) ? over : under).push([label, [half(a), m, half(b)].map((p) => p.join(",")).join(" ")]);
        }
      }
      const crossing = (points, stroke, w) => {
        const line = document.createElementNS(SVG, "polyline");
        line.setAttribute("points", points); line.setAttribute("fill", "none"); line.setAttribute("stroke", stroke);
        line.setAttribute("stroke-width", w); line.setAttribute("class", "crossing");
        g.appendChild(line);
      };
      for (const [label, points] of under) crossing(points, (this.board.shades || {})[label] || colours[label], width);
      for (const [label, points] of over) {
        crossing(points, this.board.gap || "#000", width * 1.45); crossing(points, colours[label], width);
      }
      const here = this.cursor && svg.querySelector(`polygon.cell[data-cell="${this.cursor}"]`);
      if (here) {  // the keyboard's cursor, drawn last so it shows whole
        const mark = document.createElementNS(SVG, "polygon");
        mark.setAttribute("points", here.getAttribute("points")); mark.setAttribute("class", "play-cursor");
        mark.setAttribute("fill", "none");
        g.appendChild(mark);
      }
    }
  }

  // The cell under a pointer event: "line:column", or null (the bridge deck and the pipes let it through).
  function cellAt(ev) {
    const el = document.elementFromPoint(ev.clientX, ev.clientY);
    const cell = el && el.closest && el.closest("polygon.cell");
    return cell ? cell.dataset.cell : null;
  }

  function svgPoint(m, ev) {  // a pointer's place in the drawing's units
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  // Pointer Events on ``el`` (one code path for a mouse, a finger and a pen): ``game()`` gives the game
  // being played or null, ``changed()`` is called after every change, ``released()`` when a stroke ends.
  function bindPointer(el, game, changed, released) {
    el.addEventListener("pointerdown", (ev) => {
      const g = game();
      if (!g) return;
      const pos = cellAt(ev);
      if (pos && g.press(pos)) { ev.preventDefault(); changed(); }
    });
    document.addEventListener("pointermove", (ev) => {
      const g = game();
      if (!g || !g.drawing) return;
      const pos = cellAt(ev), svg = el.querySelector("svg"), m = svg && svg.getScreenCTM();
      if (pos ? g.drag(pos) : m && g.offEdge(...svgPoint(m, ev))) changed();
    });
    const end = () => { const g = game(); if (g && g.release()) released(); };
    document.addEventListener("pointerup", end);
    document.addEventListener("pointercancel", end);
  }

  // Keyboard play on ``el``: arrows move a cursor, ] and [ to the next or the previous endpoint, Enter or Space
  // picks up the flow under it (an endpoint or its path), arrows then draw along the links (back over the path
  // shortens it), ] and [ turn the last step to the next neighbour round, Enter, Space or Esc drops it.
  function bindKeys(el, game, changed, released) {
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    el.addEventListener("keydown", (ev) => {
      const g = game();
      if (!g || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (arrows[ev.key]) {
        ev.preventDefault();
        const [dx, dy] = arrows[ev.key], path = g.drawing && g.paths[g.drawing];
        if (!g.cursor) g.cursor = g.firstEnd();
        else if (path) {  // the best cell that way the game takes
          // back one cell (the path's cell before the head) only as the best that way; never onto the path further
          // back (a loop of the path beside the head is not cut off by a key)
          const back = path[path.length - 2], way = g.towardAll(path[path.length - 1], dx, dy, true, back, g.drawing);
          for (const n of way) if ((n === back ? n === way[0] : !path.includes(n)) && g.drag(n)) break;
          g.cursor = path[path.length - 1];
        }
        else g.cursor = g.toward(g.cursor, dx, dy, false) || g.cursor;
        changed();
      } else if (ev.key === "]" || ev.key === "[") {  // turn the last step, or the cursor to another endpoint
        ev.preventDefault();
        const turn = ev.key === "]" ? 1 : -1, path = g.drawing && g.paths[g.drawing];
        if (path) { g.turn(turn); g.cursor = path[path.length - 1]; } else g.cursor = g.nextEnd(turn);
        changed();
      } else if (ev.key === "Enter" || ev.key === " " || (ev.key === "Escape" && g.drawing)) {
        ev.preventDefault();
        if (g.drawing) { g.release(); released(); } else if (g.cursor && g.press(g.cursor)) changed();
      }
    });
  }

  globalThis.FlowGame = { Game, bindKeys, bindPointer, cellAt, key };
})();
