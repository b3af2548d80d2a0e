// Dots-and-Boxes drawn from a `state` message: dots, the drawn lines in the colour of the
// player who drew them, boxes filled in their owner's colour. Each edge has a click target
// `.edge[data-move]` covering the area nearer to it than to any other edge, so a click near
// a line plays it; drawn lines are `.edge-line[data-move][data-by]`.
import { el, text, clear, layers, moveKey } from "./svg.js";

const GAP = 64;
const MARGIN = 40;
export const COLORS = { black: "#1f5fbf", white: "#c8362f" };
const TINT = { black: "#b7cdf0", white: "#f2bdb8" };
const LETTER = { black: "B", white: "R" };

/** Dot name as the protocol writes it: column letter, row number from the bottom. */
function dotName(x, y, rows) {
  return "abcdefghi"[x] + String(rows - y + 1);
}

/** Same edge whichever dot comes first. */
function edgeKey(m) {
  return moveKey(m).split("-").sort().join("-");
}

/** Draws a Dots-and-Boxes state into `svg`. */
export function drawDots(svg, ctx) {
  const s = ctx.state;
  const d = s.dots;
  const { cols, rows } = d;
  const X = (x) => MARGIN + x * GAP;
  const Y = (y) => MARGIN + y * GAP;
  const w = cols * GAP + 2 * MARGIN;
  const h = rows * GAP + 2 * MARGIN;
  const L = layers(svg, `dots:${cols}x${rows}`, `0 0 ${w} ${h}`);

  if (L.fresh) {
    el("rect", { x: 0, y: 0, width: w, height: h, rx: 6, fill: "#fbfaf6" }, L.base);
    const lab = { fill: "#8a8577", "font-size": 13 };
    for (let x = 0; x <= cols; x++) text(L.base, X(x), Y(rows) + MARGIN * 0.55, "abcdefghi"[x], lab);
    for (let y = 0; y <= rows; y++) text(L.base, MARGIN * 0.45, Y(y), String(rows - y + 1), lab);
    for (const e of d.edges) {
      const [x0, y0] = e.from, [x1, y1] = e.to;
      el("line", { x1: X(x0), y1: Y(y0), x2: X(x1), y2: Y(y1), stroke: "#d8d3c6", "stroke-width": 2, "stroke-dasharray": "3 5" }, L.base);
      // The click area: the diamond between the edge's two dots and the two box centres beside it.
      const mx = (X(x0) + X(x1)) / 2, my = (Y(y0) + Y(y1)) / 2;
      const horiz = y0 === y1;
      const pts = horiz
        ? [[X(x0), my], [mx, my - GAP / 2], [X(x1), my], [mx, my + GAP / 2]]
        : [[mx, Y(y0)], [mx + GAP / 2, my], [mx, Y(y1)], [mx - GAP / 2, my]];
      const g = el("g", { class: "edge", "data-move": e.move }, L.hits);
      el("line", { class: "ghost", x1: X(x0), y1: Y(y0), x2: X(x1), y2: Y(y1), "stroke-width": 7, "stroke-linecap": "round" }, g);
      const poly = el("polygon", { class: "hit", points: pts.map((p) => p.join(",")).join(" ") }, g);
      el("title", {}, poly).textContent = e.move;
      g.addEventListener("click", () => ctx.onPlay(e.move));
    }
  }

  const byKey = new Map(d.edges.map((e) => [edgeKey(e.move), e]));
  for (const g of L.hits.children) {
    const e = byKey.get(edgeKey(g.dataset.move));
    g.classList.toggle("legal", ctx.playable && !!e && !e.by);
  }

  const dyn = L.dyn;
  clear(dyn);
  // Boxes.
  d.boxes.forEach((row, y) => row.forEach((owner, x) => {
    if (!owner) return;
    el("rect", { class: `box ${owner}`, "data-owner": owner, x: X(x) + 3, y: Y(y) + 3, width: GAP - 6, height: GAP - 6, fill: TINT[owner] }, dyn);
    text(dyn, X(x) + GAP / 2, Y(y) + GAP / 2, LETTER[owner], { "font-size": 22, "font-weight": 700, fill: COLORS[owner], "fill-opacity": 0.75 });
  }));
  // Drawn lines.
  const lastKey = s.last ? edgeKey(s.last) : null;
  for (const e of d.edges) {
    if (!e.by) continue;
    const [x0, y0] = e.from, [x1, y1] = e.to;
    el("line", {
      class: "edge-line", "data-move": e.move, "data-by": e.by,
      x1: X(x0), y1: Y(y0), x2: X(x1), y2: Y(y1), stroke: COLORS[e.by], "stroke-width": 6, "stroke-linecap": "round",
    }, dyn);
    if (edgeKey(e.move) === lastKey) {
      el("circle", { class: "last", cx: (X(x0) + X(x1)) / 2, cy: (Y(y0) + Y(y1)) / 2, r: 4.5, fill: "#fff", stroke: COLORS[e.by], "stroke-width": 2 }, dyn);
    }
  }
  // Analysis: the best edges or the hovered line of play, numbered.
  const an = ctx.analysis;
  const mid = (e) => [(X(e.from[0]) + X(e.to[0])) / 2, (Y(e.from[1]) + Y(e.to[1])) / 2];
  if (ctx.pv) {
    const g = el("g", { class: "pv" }, dyn);
    ctx.pv.moves.forEach((m, i) => {
      const e = byKey.get(edgeKey(m));
      if (!e) return;
      el("line", { class: "pv-edge", "data-move": e.move, x1: X(e.from[0]), y1: Y(e.from[1]), x2: X(e.to[0]), y2: Y(e.to[1]), stroke: "#7a4fb5", "stroke-width": 5, "stroke-dasharray": "6 4", "stroke-linecap": "round" }, g);
      const [mx, my] = mid(e);
      el("circle", { cx: mx, cy: my, r: 10, fill: "#7a4fb5" }, g);
      text(g, mx, my, String(i + 1), { class: "pv-label", "font-size": 12, fill: "#fff" });
    });
  } else if (an && an.moves && an.moves.length) {
    const g = el("g", { class: "top-moves" }, dyn);
    an.moves.slice(0, 6).forEach((m, i) => {
      const e = byKey.get(edgeKey(m.move));
      if (!e || e.by || (i > 0 && (m.share ?? 0) < 0.02)) return;
      const [mx, my] = mid(e);
      const t = el("g", { class: "top-move", "data-move": e.move, "data-rank": i + 1 }, g);
      el("circle", { cx: mx, cy: my, r: 13, fill: i === 0 ? "#3fbf7f" : "#f2c94c", stroke: i === 0 ? "#1b6e46" : "#a07f12", "stroke-width": 1.5 }, t);
      const pct = Math.round((m.share ?? 0) * 100);
      text(t, mx, my, String(pct), { "font-size": pct >= 100 ? 10 : 12, "font-weight": 600, fill: "#111" });
    });
  }
  // Dots on top of everything.
  for (let y = 0; y <= rows; y++) {
    for (let x = 0; x <= cols; x++) {
      el("circle", { class: "dot-point", "data-dot": dotName(x, y, rows), cx: X(x), cy: Y(y), r: 5.5, fill: "#2b2b2b" }, dyn);
    }
  }
}
