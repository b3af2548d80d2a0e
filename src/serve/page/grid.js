// Go, Gomoku (stones on the lines) and Othello (discs in green squares), drawn from a
// `state` message. Every point has a click target `.pt[data-move]`; pieces are
// `.stone.black|.white[data-move]`.
import { el, text, clear, layers, moveKey } from "./svg.js";

const STYLE = {
  go: { cell: 40, margin: 50, squares: false, wood: "#dcb35c", line: "#3b2a10" },
  gomoku: { cell: 40, margin: 50, squares: false, wood: "#e9c98a", line: "#4a3818" },
  othello: { cell: 56, margin: 34, squares: true, wood: "#1d5e34", line: "#0b2e17" },
};

function starPoints(game, n) {
  if (game === "othello") return [];
  if (game === "gomoku") {
    if (n < 9) return [];
    const a = 3, b = n - 4, m = (n - 1) / 2;
    return [[a, a], [a, b], [b, a], [b, b], [m, m]];
  }
  if (n === 19) {
    const l = [3, 9, 15];
    return l.flatMap((x) => l.map((y) => [x, y]));
  }
  if (n === 13) return [[3, 3], [3, 9], [9, 3], [9, 9], [6, 6]];
  if (n === 9) return [[2, 2], [2, 6], [6, 2], [6, 6], [4, 4]];
  return [];
}

/** Draws the board of a Go, Gomoku or Othello state into `svg`. */
export function drawGrid(svg, ctx) {
  const s = ctx.state;
  const st = STYLE[s.game];
  const cols = s.col_labels.length;
  const rows = s.row_labels.length;
  const { cell, margin, squares } = st;
  const w = squares ? cols * cell : (cols - 1) * cell;
  const h = squares ? rows * cell : (rows - 1) * cell;
  // Centre of point (c, r): intersections for Go/Gomoku, square centres for Othello.
  const px = (c) => margin + (squares ? (c + 0.5) * cell : c * cell);
  const py = (r) => margin + (squares ? (r + 0.5) * cell : r * cell);
  const key = `${s.game}:${cols}x${rows}`;
  // Othello's labels sit only above and left of the board: a thinner frame on the other two sides.
  const far = squares ? margin / 2 : margin;
  const L = layers(svg, key, `0 0 ${w + margin + far} ${h + margin + far}`);

  if (L.fresh) {
    drawBase(L.base, s, st, cols, rows, w, h, far, px, py);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const move = s.col_labels[c] + s.row_labels[r];
        const g = el("g", { class: "pt", "data-move": move }, L.hits);
        el("circle", { class: "ghost", cx: px(c), cy: py(r), r: cell * (squares ? 0.4 : 0.46) }, g);
        const t = el("rect", { class: "hit", x: px(c) - cell / 2, y: py(r) - cell / 2, width: cell, height: cell }, g);
        el("title", {}, t).textContent = move;
        g.addEventListener("click", () => ctx.onPlay(move));
      }
    }
  }

  // Which points a click may play now.
  const legal = new Set((s.legal || []).map(moveKey));
  for (const g of L.hits.children) {
    g.classList.toggle("legal", ctx.playable && legal.has(moveKey(g.dataset.move)));
  }

  const dyn = L.dyn;
  clear(dyn);
  const at = new Map(); // move key -> [c, r]
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) at.set(moveKey(s.col_labels[c] + s.row_labels[r]), [c, r]);
  const cellAt = (c, r) => (s.board[r] || "")[c] || ".";
  const rad = cell * (squares ? 0.42 : 0.47);

  // Ownership (Go): shade empty points, and mark stones the search thinks are dead.
  const an = ctx.analysis;
  if (s.game === "go" && an && Array.isArray(an.ownership) && an.ownership.length === cols * rows) {
    const og = el("g", { class: "ownership" }, dyn);
    an.ownership.forEach((v, i) => {
      const c = i % cols, r = Math.floor(i / cols);
      if (Math.abs(v) < 0.15 || cellAt(c, r) !== ".") return;
      const side = cell * 0.5;
      el("rect", {
        x: px(c) - side / 2, y: py(r) - side / 2, width: side, height: side,
        fill: v > 0 ? "#000" : "#fff", "fill-opacity": Math.min(0.85, Math.abs(v) * 0.8),
        "data-owner": v > 0 ? "black" : "white",
      }, og);
    });
    // Marks on stones go above the stones: drawn again after them below.
    ctx._dead = an.ownership;
  }

  // Pieces.
  const pieces = el("g", { class: "pieces" }, dyn);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = cellAt(c, r);
      if (v !== "X" && v !== "O") continue;
      const color = v === "X" ? "black" : "white";
      el("circle", {
        class: `stone ${color}`, "data-move": s.col_labels[c] + s.row_labels[r],
        cx: px(c), cy: py(r), r: rad,
        fill: `url(#g-${color})`, stroke: color === "white" ? "#8a8a8a" : "#000", "stroke-width": 0.8,
      }, pieces);
    }
  }
  if (ctx._dead) {
    ctx._dead.forEach((v, i) => {
      const c = i % cols, r = Math.floor(i / cols);
      const stone = cellAt(c, r);
      if ((stone === "X" && v < -0.15) || (stone === "O" && v > 0.15)) {
        const side = cell * 0.32;
        el("rect", {
          class: "dead", x: px(c) - side / 2, y: py(r) - side / 2, width: side, height: side,
          fill: v > 0 ? "#000" : "#fff", "fill-opacity": Math.min(0.9, Math.abs(v)),
          stroke: v > 0 ? "#fff" : "#000", "stroke-width": 0.6,
        }, pieces);
      }
    });
    delete ctx._dead;
  }

  // Last move.
  const last = s.last && at.get(moveKey(s.last));
  if (last) {
    const [c, r] = last;
    const v = cellAt(c, r);
    if (s.game === "go") {
      el("circle", { class: "last", cx: px(c), cy: py(r), r: rad * 0.45, fill: "none", stroke: v === "X" ? "#fff" : "#000", "stroke-width": 2.2 }, dyn);
    } else {
      el("circle", { class: "last", cx: px(c), cy: py(r), r: cell * 0.1, fill: "#e0321f" }, dyn);
    }
  }

  // Gomoku's winning line.
  if (Array.isArray(s.winning_line) && s.winning_line.length >= 2) {
    const wl = s.winning_line;
    const g = el("g", { class: "winning-line" }, dyn);
    const [c0, r0] = wl[0], [c1, r1] = wl[wl.length - 1];
    el("line", { x1: px(c0), y1: py(r0), x2: px(c1), y2: py(r1), stroke: "#e0321f", "stroke-width": 5, "stroke-linecap": "round", opacity: 0.8 }, g);
    for (const [c, r] of wl) el("circle", { cx: px(c), cy: py(r), r: rad * 0.98, fill: "none", stroke: "#e0321f", "stroke-width": 3 }, g);
  }

  // Othello: the legal squares, when a person is to move.
  if (s.game === "othello" && ctx.playable) {
    const g = el("g", { class: "hints" }, dyn);
    for (const m of s.legal || []) {
      const p = at.get(moveKey(m));
      if (p) el("circle", { class: "hint", "data-move": m, cx: px(p[0]), cy: py(p[1]), r: cell * 0.12, fill: "rgba(0,0,0,0.28)" }, g);
    }
  }

  // Analysis: the best moves, or the hovered principal variation.
  if (ctx.pv) {
    drawPv(dyn, ctx.pv, at, px, py, rad);
  } else if (an && an.moves && an.moves.length) {
    drawTop(dyn, an.moves, at, px, py, cell);
  }
}

function drawBase(g, s, st, cols, rows, w, h, far, px, py) {
  const { cell, margin, squares, wood, line } = st;
  el("rect", { x: 0, y: 0, width: w + margin + far, height: h + margin + far, rx: 6, fill: squares ? "#163d24" : wood }, g);
  if (squares) {
    el("rect", { x: margin, y: margin, width: w, height: h, fill: wood }, g);
    for (let i = 0; i <= cols; i++) el("line", { x1: margin + i * cell, y1: margin, x2: margin + i * cell, y2: margin + h, stroke: line, "stroke-width": 1.5 }, g);
    for (let i = 0; i <= rows; i++) el("line", { x1: margin, y1: margin + i * cell, x2: margin + w, y2: margin + i * cell, stroke: line, "stroke-width": 1.5 }, g);
    if (cols === 8 && rows === 8) {
      for (const [x, y] of [[2, 2], [2, 6], [6, 2], [6, 6]]) el("circle", { cx: margin + x * cell, cy: margin + y * cell, r: 4, fill: line }, g);
    }
  } else {
    for (let c = 0; c < cols; c++) el("line", { x1: px(c), y1: margin, x2: px(c), y2: margin + h, stroke: line, "stroke-width": c === 0 || c === cols - 1 ? 1.6 : 1 }, g);
    for (let r = 0; r < rows; r++) el("line", { x1: margin, y1: py(r), x2: margin + w, y2: py(r), stroke: line, "stroke-width": r === 0 || r === rows - 1 ? 1.6 : 1 }, g);
    for (const [c, r] of starPoints(s.game, cols)) el("circle", { class: "star", cx: px(c), cy: py(r), r: 3.6, fill: line }, g);
  }
  const lab = { fill: squares ? "#e8efe9" : "#3b2a10", "font-size": squares ? 16 : 15 };
  const off = squares ? margin / 2 : margin / 2 - 6;
  for (let c = 0; c < cols; c++) {
    text(g, px(c), off, s.col_labels[c], lab);
    if (!squares) text(g, px(c), margin * 1.5 + h + 6, s.col_labels[c], lab);
  }
  for (let r = 0; r < rows; r++) {
    text(g, off, py(r), s.row_labels[r], lab);
    if (!squares) text(g, margin * 1.5 + w + 6, py(r), s.row_labels[r], lab);
  }
}

/** The best moves of an analysis as coloured circles with their share of the search. */
function drawTop(dyn, moves, at, px, py, cell) {
  const g = el("g", { class: "top-moves" }, dyn);
  moves.slice(0, 8).forEach((m, i) => {
    const p = at.get(moveKey(m.move));
    if (!p || (i > 0 && (m.share ?? 0) < 0.02)) return;
    const [c, r] = p;
    const t = el("g", { class: "top-move", "data-move": m.move, "data-rank": i + 1 }, g);
    el("circle", {
      cx: px(c), cy: py(r), r: cell * 0.4,
      fill: i === 0 ? "#3fbf7f" : "#f2c94c", "fill-opacity": i === 0 ? 0.9 : 0.75,
      stroke: i === 0 ? "#1b6e46" : "#a07f12", "stroke-width": 1.5,
    }, t);
    const pct = Math.round((m.share ?? 0) * 100);
    text(t, px(c), py(r), `${pct}`, { "font-size": cell * (pct >= 100 ? 0.27 : 0.34), "font-weight": 600, fill: "#111" });
  });
}

/** A principal variation as numbered translucent stones, colours alternating. */
function drawPv(dyn, pv, at, px, py, rad) {
  const g = el("g", { class: "pv" }, dyn);
  let color = pv.color;
  pv.moves.forEach((m, i) => {
    const p = at.get(moveKey(m));
    if (p) {
      const [c, r] = p;
      el("circle", {
        class: `pv-stone ${color}`, "data-move": m, cx: px(c), cy: py(r), r: rad,
        fill: color === "black" ? "#111" : "#fafafa", "fill-opacity": 0.78, stroke: "#555", "stroke-width": 0.8,
      }, g);
      text(g, px(c), py(r), String(i + 1), { class: "pv-label", "font-size": rad * 0.9, fill: color === "black" ? "#fff" : "#111" });
    }
    color = color === "black" ? "white" : "black";
  });
}
