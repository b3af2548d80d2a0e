// Small SVG helpers shared by the board drawings.
export const NS = "http://www.w3.org/2000/svg";

/** Creates an SVG element with attributes (numbers rounded a little) under `parent`. */
export function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    e.setAttribute(k, typeof v === "number" ? String(Math.round(v * 100) / 100) : String(v));
  }
  if (parent) parent.appendChild(e);
  return e;
}

/** A text element. */
export function text(parent, x, y, s, attrs = {}) {
  const t = el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  t.textContent = s;
  return t;
}

/** Empties an element. */
export function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
}

/**
 * Makes the three layers of a board once per geometry: `base` (static drawing), `dyn`
 * (pieces and marks, redrawn on every update, never catches the mouse) and `hits` (the
 * click targets, kept while the geometry stays, so a click is not lost when an analysis
 * update redraws the pieces between mouse-down and mouse-up).
 */
export function layers(svg, key, viewBox) {
  if (svg.dataset.geometry === key) {
    return { fresh: false, base: svg.querySelector(".base"), dyn: svg.querySelector(".dyn"), hits: svg.querySelector(".hits") };
  }
  clear(svg);
  svg.dataset.geometry = key;
  svg.setAttribute("viewBox", viewBox);
  const defs = el("defs", {}, svg);
  gradient(defs, "g-black", "#5a5a5a", "#0a0a0a");
  gradient(defs, "g-white", "#ffffff", "#cfcfcf");
  const base = el("g", { class: "base" }, svg);
  const dyn = el("g", { class: "dyn", "pointer-events": "none" }, svg);
  const hits = el("g", { class: "hits" }, svg);
  return { fresh: true, base, dyn, hits };
}

function gradient(defs, id, light, dark) {
  const g = el("radialGradient", { id, cx: "35%", cy: "30%", r: "70%" }, defs);
  el("stop", { offset: "0%", "stop-color": light }, g);
  el("stop", { offset: "100%", "stop-color": dark }, g);
}

/** Lower-case key of a move, so `D3` from an analysis line finds the board's `d3`. */
export function moveKey(m) {
  return String(m).trim().toLowerCase();
}
