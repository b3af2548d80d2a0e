// The page of `quartet serve`: one WebSocket = one game session (docs/serve.md). The page
// keeps no game logic of its own: it draws the last `state` and `analysis` the server sent
// and turns clicks and buttons into messages.
import { drawGrid } from "./grid.js";
import { drawDots } from "./dots.js";
import { moveKey } from "./svg.js";

const $ = (id) => document.getElementById(id);
const svg = $("board");

let ws = null;
let state = null;
let analysis = null;
let hovered = null; // move of the analysis row under the mouse or focus
// The analysis switch as last set here, until a state from the server shows it: states
// sent before the server read the change must not flip the switch back.
let analyzeSent = null;
let retry = 0;

// ---------- names and numbers ----------

function sideName(game, color) {
  if (game === "dots") return color === "black" ? "Blue" : "Red";
  return color === "black" ? "Black" : "White";
}
const other = (c) => (c === "black" ? "white" : "black");
const pct = (x) => `${Math.round(x * 100)}%`;
const signed = (x) => (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(x).toFixed(Math.abs(x) >= 100 ? 0 : 1);

/** "B+3.5" -> "Black wins by 3.5", "W+R" -> "White wins by resignation". */
function resultText(game, result) {
  if (!result) return "Game over";
  if (/^(draw|0|jigo)$/i.test(result)) return "Draw";
  const m = /^([BW])\+(.*)$/i.exec(result);
  if (!m) return result;
  const who = sideName(game, m[1].toUpperCase() === "B" ? "black" : "white");
  const by = m[2];
  if (!by) return `${who} wins`;
  if (/^r/i.test(by)) return `${who} wins by resignation`;
  if (/^t/i.test(by)) return `${who} wins on time`;
  if (/^f/i.test(by)) return `${who} wins by forfeit`;
  const one = Number(by) === 1;
  const unit = { go: one ? " point" : " points", othello: one ? " disc" : " discs", dots: one ? " box" : " boxes" }[game] || "";
  return `${who} wins by ${by}${unit}`;
}

// ---------- messages ----------

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify(msg));
    return true;
  }
  toast("Not connected to the server yet.");
  return false;
}

function connect() {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  setConnection("connecting…", false);
  ws = new WebSocket(url);
  ws.onopen = () => {
    retry = 0;
    analyzeSent = null;
    setConnection("connected", false);
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    onMessage(msg);
  };
  ws.onclose = () => {
    ws = null;
    const wait = Math.min(10, 1 + retry++);
    setConnection(`disconnected; reconnecting in ${wait} s`, true);
    setTimeout(connect, wait * 1000);
  };
}

function setConnection(text, bad) {
  const c = $("connection");
  c.textContent = text;
  c.classList.toggle("bad", bad);
}

function onMessage(msg) {
  switch (msg.type) {
    case "hello":
      setConnection(`connected · quartet ${msg.version || ""}`.trim(), false);
      newGame();
      break;
    case "state": {
      const geometry = (x) => x && `${x.game}:${x.dots ? `${x.dots.cols}x${x.dots.rows}` : x.size}:${x.rule}`;
      if (geometry(state) !== geometry(msg)) syncForm(msg);
      const moved = !state || state.game !== msg.game || state.moves.length !== msg.moves.length || state.to_move !== msg.to_move
        || (state.dots ? state.dots.cols : state.size) !== (msg.dots ? msg.dots.cols : msg.size);
      if (moved || msg.over) {
        analysis = null;
        hovered = null;
      }
      state = msg;
      // The server keeps the analysis switch (a stop turns it off): show its value.
      if (analyzeSent !== null && msg.analyzing === analyzeSent) analyzeSent = null;
      if (analyzeSent === null && typeof msg.analyzing === "boolean" && $("analyze").checked !== msg.analyzing) {
        $("analyze").checked = msg.analyzing;
        if (!msg.analyzing) analysis = null;
      }
      render();
      break;
    }
    case "analysis":
      if (!state || state.over || !$("analyze").checked || !current(msg)) break;
      analysis = msg;
      renderAnalysis();
      renderBoard();
      break;
    case "record":
      download(msg.filename || `quartet.${msg.format || "txt"}`, msg.text || "");
      toast(`Saved ${msg.filename || "the record"}.`, "info");
      break;
    case "error":
      toast(msg.message || msg.code || "error");
      if (msg.code === "busy") setTimeout(() => { if (!state) newGame(); }, 3000);
      break;
    default:
      break;
  }
}

/** Whether an analysis is of the position on the board (one sent just before a move is not). */
function current(an) {
  if (an.to_move !== state.to_move) return false;
  const key = (m) => (state.game === "dots" ? moveKey(m).split("-").sort().join("-") : moveKey(m));
  const legal = new Set((state.legal || []).map(key));
  return (an.moves || []).every((m) => legal.has(key(m.move)));
}

// ---------- controls ----------

function settings() {
  const game = $("game").value;
  const num = (id, lo, hi, dflt) => {
    const v = Number($(id).value);
    return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : dflt;
  };
  const msg = { type: "new", game, black: $("black").value, white: $("white").value, seconds: num("seconds", 0.1, 60, 1) };
  if (game === "go") {
    msg.size = Number($("size").value);
    msg.komi = num("komi", -150, 150, 7.5);
  } else if (game === "gomoku") {
    msg.size = 15;
    msg.rule = $("rule").value;
  } else if (game === "dots") {
    msg.cols = Math.round(num("cols", 1, 8, 4));
    msg.rows = Math.round(num("rows", 1, 8, 4));
  }
  return msg;
}

function newGame() {
  const msg = settings();
  saveSettings();
  if (send(msg) && $("analyze").checked) send({ type: "analyze", on: true });
}

/** Shows a game the server started (a loaded record, say) in the form, so New game repeats it. */
function syncForm(s) {
  $("game").value = s.game;
  if (s.game === "go") {
    $("size").value = String(s.size);
    if (typeof s.komi === "number") $("komi").value = String(s.komi);
  }
  if (s.game === "gomoku" && s.rule) $("rule").value = s.rule;
  if (s.game === "dots" && s.dots) {
    $("cols").value = String(s.dots.cols);
    $("rows").value = String(s.dots.rows);
  }
  if (s.players) {
    $("black").value = s.players.black;
    $("white").value = s.players.white;
  }
  if (typeof s.seconds === "number") $("seconds").value = String(s.seconds);
  showGameRows();
}

function showGameRows() {
  const game = $("game").value;
  for (const row of document.querySelectorAll("[data-for]")) row.hidden = row.dataset.for !== game;
  $("black-label").textContent = sideName(game, "black") + (game === "dots" ? " (first)" : "");
  $("white-label").textContent = sideName(game, "white");
}

const STORE = "quartet-serve-settings";
const FIELDS = ["game", "size", "komi", "rule", "cols", "rows", "black", "white", "seconds"];
function saveSettings() {
  try {
    localStorage.setItem(STORE, JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, $(f).value]))));
  } catch { /* storage may be off */ }
}
function loadSettings() {
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || "{}");
    for (const f of FIELDS) if (typeof s[f] === "string" && s[f] !== "") $(f).value = s[f];
  } catch { /* keep the defaults */ }
}

function humanToMove() {
  return !!state && !state.over && !state.thinking && state.players[state.to_move] === "human";
}

function play(move) {
  if (!state) return;
  if (state.over) return toast("The game is over: start a new one.");
  if (state.players[state.to_move] !== "human") return toast(`${sideName(state.game, state.to_move)} is played by the engine.`);
  if (state.thinking) return toast("The engine is thinking: wait or press Stop.");
  send({ type: "play", move });
}

function playersChanged() {
  saveSettings();
  if (!state) return;
  const msg = { type: "players", black: $("black").value, white: $("white").value, seconds: settings().seconds };
  send(msg);
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function toast(message, kind = "error") {
  const t = Object.assign(document.createElement("div"), { className: `toast ${kind}`, textContent: message });
  $("toasts").appendChild(t);
  setTimeout(() => t.classList.add("fade"), 3500);
  setTimeout(() => t.remove(), 4000);
}

// ---------- drawing ----------

function render() {
  renderStatus();
  renderBoard();
  renderAnalysis();
  renderHistory();
  renderButtons();
}

function renderBoard() {
  if (!state) return;
  const playable = humanToMove();
  svg.classList.toggle("playable", playable);
  svg.classList.toggle("to-black", state.to_move === "black");
  svg.classList.toggle("to-white", state.to_move === "white");
  svg.setAttribute("aria-label", `${state.game} board`);
  const row = hovered && analysis && analysis.moves.find((m) => m.move === hovered);
  const ctx = {
    state,
    analysis,
    playable,
    pv: row && row.pv && row.pv.length ? { moves: row.pv, color: analysis.to_move } : null,
    onPlay: play,
  };
  if (state.game === "dots") drawDots(svg, ctx);
  else drawGrid(svg, ctx);
}

function dotSpan(color) {
  return `<span class="dot ${color}" aria-hidden="true"></span>`;
}

function renderStatus() {
  const s = state;
  document.body.classList.toggle("dots-game", s.game === "dots");
  const turn = $("turn");
  turn.dataset.toMove = s.over ? "" : s.to_move;
  turn.dataset.over = String(!!s.over);
  turn.classList.toggle("over", !!s.over);
  turn.classList.toggle("thinking", !!s.thinking);
  if (s.over) {
    turn.innerHTML = `${resultText(s.game, s.result)}${s.result ? ` <small>(${s.result})</small>` : ""}`;
  } else {
    const who = sideName(s.game, s.to_move);
    const player = s.players[s.to_move] === "engine" ? "engine" : "you";
    const doing = s.thinking ? "thinking" : s.paused ? "to move (paused)" : "to move";
    turn.innerHTML = `${dotSpan(s.to_move)} ${who} (${player}) ${doing}`;
  }
  const parts = [];
  if (s.game === "go") {
    parts.push(`Captures: ${dotSpan("black")} ${s.captures?.black ?? 0} ${dotSpan("white")} ${s.captures?.white ?? 0}`);
    parts.push(`Komi ${s.komi}`);
  } else if (s.score) {
    const unit = s.game === "dots" ? "Boxes" : "Discs";
    parts.push(`${unit}: ${dotSpan("black")} <b data-score="black">${s.score.black}</b> ${dotSpan("white")} <b data-score="white">${s.score.white}</b>`);
  }
  if (s.game === "gomoku" && s.rule) parts.push(`Rule: ${s.rule}`);
  parts.push(`Move ${s.moves.length}`);
  $("scores").innerHTML = parts.map((p) => `<span>${p}</span>`).join("");
}

function renderButtons() {
  const s = state;
  const human = humanToMove();
  const legal = new Set((s.legal || []).map(moveKey));
  $("pass").disabled = !human || !legal.has("pass");
  // Only Go passes by choice; the other rules pass for a player or never.
  $("pass").hidden = s.game !== "go";
  $("undo").disabled = s.moves.length === 0 || s.thinking;
  $("stop").disabled = !s.thinking && !s.analyzing;
  const engineNext = !s.over && s.players[s.to_move] === "engine" && !s.thinking;
  $("resume").disabled = !(s.paused || engineNext);
  $("save").disabled = false;
  $("move-input").disabled = !human;
  $("move-play").disabled = !human;
  $("move-input").placeholder = { go: "e.g. D4", othello: "e.g. d3", gomoku: "e.g. H8", dots: "e.g. a1-b1" }[s.game] || "";
}

function renderHistory() {
  const ol = $("history");
  ol.innerHTML = "";
  state.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.innerHTML = `<span>${i + 1}.</span>${dotSpan(m.color)} ${m.move}`;
    ol.appendChild(li);
  });
  ol.scrollTop = ol.scrollHeight;
}

function winText(game, w, score) {
  if (w === null || w === undefined) return "–";
  // Gomoku and Dots report 0.5 when the result is not yet known.
  if ((game === "gomoku" || game === "dots") && w === 0.5 && (score === null || score === undefined)) return "–";
  return pct(w);
}

function renderAnalysis() {
  const body = document.querySelector("#analysis tbody");
  const sum = $("analysis-summary");
  body.innerHTML = "";
  if (!state) return;
  if (!$("analyze").checked) {
    sum.textContent = "Off. Turn it on to see the engine's view.";
    return;
  }
  if (!analysis || !analysis.moves || !analysis.moves.length) {
    sum.textContent = state.over ? "The game is over." : "Waiting for the engine…";
    return;
  }
  const best = analysis.moves[0];
  const who = sideName(state.game, analysis.to_move);
  const bits = [`<b>${who}</b> to move`];
  const w = winText(state.game, best.winrate, best.score);
  if (w !== "–") bits.push(`win <b>${w}</b>`);
  if (best.score !== null && best.score !== undefined) bits.push(`score <b>${signed(best.score)}</b>`);
  const visits = analysis.moves.reduce((a, m) => a + (m.visits || 0), 0);
  if (visits) bits.push(`${visits.toLocaleString("en")} visits`);
  sum.innerHTML = bits.join(" · ");
  for (const m of analysis.moves) {
    const tr = document.createElement("tr");
    tr.tabIndex = 0;
    tr.dataset.move = m.move;
    const share = Math.max(0, Math.min(1, m.share ?? 0));
    tr.innerHTML = `<td>${m.move}</td>`
      + `<td><div class="bar" title="share of the search"><span style="width:${(share * 100).toFixed(1)}%"></span><em>${pct(share)}</em></div></td>`
      + `<td>${winText(state.game, m.winrate, m.score)}</td>`
      + `<td>${m.score === null || m.score === undefined ? "–" : signed(m.score)}</td>`
      + `<td class="pv">${(m.pv || []).slice(0, 8).join(" ")}</td>`;
    tr.title = `${m.move}: ${m.visits ?? 0} visits; line ${(m.pv || []).join(" ")}`;
    body.appendChild(tr);
  }
}

function setHover(move) {
  if (hovered === move) return;
  hovered = move;
  renderBoard();
}

// ---------- wiring ----------

function init() {
  loadSettings();
  showGameRows();
  $("game").addEventListener("change", showGameRows);
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    newGame();
  });
  for (const id of ["black", "white", "seconds"]) $(id).addEventListener("change", playersChanged);
  $("pass").addEventListener("click", () => play("pass"));
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("stop").addEventListener("click", () => {
    // The server ends live analysis with the search; the switch says so.
    $("analyze").checked = false;
    analyzeSent = false;
    analysis = null;
    hovered = null;
    send({ type: "stop" });
    renderAnalysis();
  });
  $("resume").addEventListener("click", () => send({ type: "resume" }));
  $("save").addEventListener("click", () => send({ type: "save" }));
  $("load").addEventListener("click", () => $("load-file").click());
  $("load-file").addEventListener("change", async (e) => {
    const f = e.target.files && e.target.files[0];
    e.target.value = "";
    if (!f) return;
    if (f.size > 200 * 1024) return toast("That file is too large for a game record.");
    send({ type: "load", text: await f.text() });
  });
  $("analyze").addEventListener("change", (e) => {
    if (!e.target.checked) {
      analysis = null;
      hovered = null;
    }
    if (send({ type: "analyze", on: e.target.checked }) && state) analyzeSent = e.target.checked;
    renderAnalysis();
    renderBoard();
  });
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const v = $("move-input").value.trim();
    if (!v) return;
    play(v);
    $("move-input").value = "";
  });
  const body = document.querySelector("#analysis tbody");
  body.addEventListener("mouseover", (e) => {
    const tr = e.target.closest("tr");
    if (tr) setHover(tr.dataset.move);
  });
  body.addEventListener("mouseleave", () => setHover(null));
  body.addEventListener("focusin", (e) => {
    const tr = e.target.closest("tr");
    if (tr) setHover(tr.dataset.move);
  });
  body.addEventListener("focusout", () => setHover(null));
  connect();
}

init();

// For the browser test and for debugging from the console.
window.quartet = { get state() { return state; }, get analysis() { return analysis; }, other };
