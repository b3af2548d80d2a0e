// Plays the page of `quartet serve` in Debian's Chromium by clicking, as a person would,
// and checks the board in the DOM after every move.
//
//   node play.mjs test URL          a few moves of each game against the engine, with checks
//   node play.mjs shots URL DIR     one screenshot per game with live analysis, DIR/serve-<game>.png
//
// Chromium: $CHROMIUM or /usr/bin/chromium. Run by tests/serve_browser.rs and
// scripts/serve_screenshots.sh.
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [mode, url, outDir] = process.argv.slice(2);
if (!["test", "shots"].includes(mode) || !url || (mode === "shots" && !outDir)) {
  console.error("usage: node play.mjs test URL | node play.mjs shots URL DIR");
  process.exit(2);
}

// Long enough for a loaded machine; only stops a hang.
const WAIT = 60_000;

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}

const edgeKey = (m) => m.trim().toLowerCase().split("-").sort().join("-");
const same = (a, b) => (a.includes("-") ? edgeKey(a) === edgeKey(b) : a.toLowerCase() === b.toLowerCase());

/** The page's view of the game, read from the DOM only. */
async function view(page) {
  return page.evaluate(() => {
    const turn = document.getElementById("turn");
    const hist = [...document.querySelectorAll("#history li")].map((li) => ({
      color: li.querySelector(".dot").classList.contains("black") ? "black" : "white",
      move: li.textContent.replace(/^\d+\.\s*/, "").trim(),
    }));
    return {
      toMove: turn.dataset.toMove || null,
      over: turn.dataset.over === "true",
      thinking: turn.classList.contains("thinking"),
      turnText: turn.textContent,
      history: hist,
      legal: [...document.querySelectorAll("#board .hits .legal")].map((e) => e.dataset.move),
      stones: [...document.querySelectorAll("#board .stone")].map((e) => ({ move: e.dataset.move, color: e.classList.contains("black") ? "black" : "white" })),
      lines: [...document.querySelectorAll("#board .edge-line")].map((e) => ({ move: e.dataset.move, color: e.dataset.by })),
      passEnabled: !document.getElementById("pass").disabled,
    };
  });
}

/** Waits until a person (Black) is to move again, or the game is over. */
async function waitHumanTurn(page) {
  await page.waitForFunction(() => {
    const t = document.getElementById("turn");
    return t.dataset.over === "true" || (t.dataset.toMove === "black" && !t.classList.contains("thinking") && document.querySelector("#board.playable"));
  }, null, { timeout: WAIT });
  return view(page);
}

/** Chooses the game in the form and starts it: Black a person, White the engine. */
async function startGame(page, setup, seconds) {
  await page.selectOption("#game", setup.game);
  if (setup.size && setup.game === "go") await page.selectOption("#size", String(setup.size));
  if (setup.rule) await page.selectOption("#rule", setup.rule);
  if (setup.cols) {
    await page.fill("#cols", String(setup.cols));
    await page.fill("#rows", String(setup.rows));
  }
  await page.selectOption("#black", "human");
  await page.selectOption("#white", "engine");
  await page.fill("#seconds", String(seconds));
  await page.dispatchEvent("#seconds", "change");
  await page.click("#new");
  const geometry = setup.game === "dots" ? `dots:${setup.cols}x${setup.rows}` : `${setup.game}:${setup.size}x${setup.size}`;
  await page.waitForFunction((g) => document.getElementById("board").dataset.geometry === g
    && document.querySelectorAll("#history li").length === 0, geometry, { timeout: WAIT });
  return waitHumanTurn(page);
}

/** The piece at `move` in the DOM: its colour, or null. */
function pieceAt(v, move) {
  const all = move.includes("-") ? v.lines : v.stones;
  const p = all.find((s) => same(s.move, move));
  return p ? p.color : null;
}

/** Clicks `move` (or Pass) as Black and checks what the page shows after it and the reply. */
async function humanMove(page, game, move) {
  const before = await view(page);
  if (move === "pass") {
    await page.click("#pass");
  } else {
    const sel = game === "dots" ? `#board .edge[data-move="${move}"]` : `#board .pt[data-move="${move}"]`;
    await page.click(sel);
  }
  // Our move shows up in the history at once (then, unless Black moves again, the reply).
  await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before.history.length, { timeout: WAIT });
  const v = await waitHumanTurn(page);
  const mine = v.history[before.history.length];
  check(mine && mine.color === "black" && same(mine.move, move), `${game}: history shows black ${move} (got ${JSON.stringify(mine)})`);
  if (move !== "pass") {
    if (game === "go") {
      // A Go stone may be captured later, never at once.
      check(pieceAt(v, move) !== null || v.history.length > before.history.length + 1, `${game}: a stone at ${move}`);
    } else {
      check(pieceAt(v, move) === "black" || (game === "othello" && pieceAt(v, move) === "white"), `${game}: black piece at ${move}`);
    }
  }
  const replies = v.history.slice(before.history.length + 1);
  if (!v.over) {
    check(v.toMove === "black", `${game}: the turn indicator is back to Black`);
    // Dots: a completed box moves again, so Black may be to move with no reply.
    if (game !== "dots") check(replies.length >= 1 && replies.every((r) => r.color === "white"), `${game}: the engine replied (${JSON.stringify(replies)})`);
  }
  for (const r of replies) {
    if (r.color !== "white" || r.move === "pass") continue;
    const last = v.history[v.history.length - 1];
    // The last reply is on the board in White's colour (Othello: a later flip may turn earlier ones).
    if (r === last || game === "dots" || game === "gomoku") {
      check(pieceAt(v, r.move) === "white", `${game}: the engine's ${r.move} on the board in White (${pieceAt(v, r.move)})`);
    }
  }
  return v;
}

/**
 * Dots, for the screenshots: an edge that completes a box, else one that gives no box its
 * third side, else any (read from the page's last state).
 */
async function dotsChoice(page) {
  return page.evaluate(() => {
    const d = window.quartet.state.dots;
    const key = (a, b) => [a.join(","), b.join(",")].sort().join("|");
    const drawn = new Set(d.edges.filter((e) => e.by).map((e) => key(e.from, e.to)));
    const sides = (x, y) => [key([x, y], [x + 1, y]), key([x, y + 1], [x + 1, y + 1]), key([x, y], [x, y + 1]), key([x + 1, y], [x + 1, y + 1])];
    const boxesOf = (e) => {
      const [[x0, y0], [x1, y1]] = [e.from, e.to];
      const out = [];
      if (y0 === y1) { const x = Math.min(x0, x1); if (y0 > 0) out.push([x, y0 - 1]); if (y0 < d.rows) out.push([x, y0]); }
      else { const y = Math.min(y0, y1); if (x0 > 0) out.push([x0 - 1, y]); if (x0 < d.cols) out.push([x0, y]); }
      return out;
    };
    const count = (x, y) => sides(x, y).filter((k) => drawn.has(k)).length;
    const free = d.edges.filter((e) => !e.by);
    return (free.find((e) => boxesOf(e).some(([x, y]) => count(x, y) === 3))
      || free.find((e) => boxesOf(e).every(([x, y]) => count(x, y) < 2))
      || free[0]).move;
  });
}

/** Picks the first of `prefs` that the page marks legal, else the first legal point. */
function choose(v, prefs) {
  const legal = v.legal.filter((m) => m !== "pass");
  for (const p of prefs) {
    const m = legal.find((l) => same(l, p));
    if (m) return m;
  }
  if (legal.length) return legal[0];
  return v.passEnabled ? "pass" : null;
}

/** Turns analysis on and checks rows appear, are marked on the board, and show a PV on hover. */
async function checkAnalysis(page, game) {
  await page.check("#analyze");
  await page.waitForFunction(() => document.querySelectorAll("#analysis tbody tr").length > 0, null, { timeout: WAIT });
  await page.waitForFunction(() => document.querySelectorAll("#board .top-move").length > 0, null, { timeout: WAIT });
  await page.hover("#analysis tbody tr:first-child");
  await page.waitForFunction(() => document.querySelectorAll("#board .pv .pv-label").length > 0, null, { timeout: WAIT });
  const first = await page.textContent("#analysis tbody tr:first-child td:first-child");
  check(first && first.trim().length > 0, `${game}: an analysis row names a move`);
  if (game === "go") {
    await page.waitForFunction(() => document.querySelector("#board g.ownership"), null, { timeout: WAIT });
  }
  await page.mouse.move(0, 0);
  await page.uncheck("#analyze");
  await page.waitForFunction(() => document.querySelectorAll("#analysis tbody tr").length === 0, null, { timeout: WAIT });
}

/** Saves the record (a download), starts over, loads the file back: the same moves return. */
async function checkSaveLoad(page, game) {
  const before = await view(page);
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: WAIT }), page.click("#save")]);
  const file = await download.path();
  const text = readFileSync(file, "utf8");
  const name = download.suggestedFilename();
  const ext = { go: ".sgf", gomoku: ".sgf", othello: ".ggf", dots: ".txt" }[game];
  check(name.endsWith(ext), `${game}: the record is saved as ${ext} (${name})`);
  check(text.trim().length > 0, `${game}: the record is not empty`);
  await page.click("#new");
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 0, null, { timeout: WAIT });
  await page.setInputFiles("#load-file", file);
  await page.waitForFunction((n) => document.querySelectorAll("#history li").length === n, before.history.length, { timeout: WAIT });
  const after = await waitHumanTurn(page);
  check(JSON.stringify(after.history) === JSON.stringify(before.history), `${game}: loading the saved record gives the same moves`);
  check(JSON.stringify(after.stones) === JSON.stringify(before.stones) && JSON.stringify(after.lines) === JSON.stringify(before.lines), `${game}: and the same board`);
  return after;
}

/** A whole game (Dots on one box): the filled box, the box score and the result show. */
async function checkGameOver(page) {
  let v = await startGame(page, { game: "dots", cols: 1, rows: 1 }, 0.2);
  while (!v.over) v = await humanMove(page, "dots", choose(v, []));
  check(v.lines.length === 4 && v.lines.every((l) => l.color), "dots 1x1: all four lines drawn");
  const box = await page.getAttribute("#board .box", "data-owner");
  const score = await page.evaluate(() => [...document.querySelectorAll("[data-score]")].map((e) => [e.dataset.score, Number(e.textContent)]));
  check(score.some(([who, n]) => who === box && n === 1), `dots 1x1: the box score gives the box to its owner (${box}, ${JSON.stringify(score)})`);
  check(/wins by 1 box/.test(v.turnText), `dots 1x1: the result is shown (${v.turnText})`);
  check(await page.isDisabled("#move-input"), "dots 1x1: no more moves once over");
}

/** Gomoku: a record that ends in a five, loaded from a file: the five is marked, Black wins. */
async function checkFive(page) {
  const sgf = "(;GM[4]FF[4]SZ[15]RU[freestyle];B[hh];W[aa];B[ih];W[ab];B[jh];W[ac];B[kh];W[ad];B[lh])";
  await page.setInputFiles("#load-file", { name: "five.sgf", mimeType: "text/plain", buffer: Buffer.from(sgf) });
  // The game before (Dots on one box) has ended too: wait for the loaded game itself.
  await page.waitForFunction(
    () => document.getElementById("game").value === "gomoku" && document.getElementById("turn").dataset.over === "true",
    null,
    { timeout: WAIT },
  );
  check((await page.inputValue("#game")) === "gomoku", "gomoku: the form shows the loaded game");
  check((await page.locator("#board .winning-line circle").count()) === 5, "gomoku: the five stones are marked");
  check(/Black wins/.test(await page.textContent("#turn")), "gomoku: Black wins");
}

/** Live analysis while the engine thinks on its own move (Dots, the engine as Black): rows
 * show before its move lands. */
async function checkThinkingAnalysis(page) {
  await page.selectOption("#game", "dots");
  await page.fill("#cols", "3");
  await page.fill("#rows", "3");
  await page.selectOption("#black", "engine");
  await page.selectOption("#white", "human");
  await page.fill("#seconds", "3");
  await page.dispatchEvent("#seconds", "change");
  await page.check("#analyze");
  await page.click("#new");
  await page.waitForFunction(() => document.getElementById("turn").classList.contains("thinking")
    && document.querySelectorAll("#history li").length === 0
    && document.querySelectorAll("#analysis tbody tr").length > 0, null, { timeout: WAIT });
  await page.waitForFunction(() => document.querySelectorAll("#history li").length >= 1, null, { timeout: WAIT });
  await page.uncheck("#analyze");
  await page.selectOption("#black", "human");
  await page.selectOption("#white", "engine");
}

/** Engine against engine: moves come by themselves; Stop pauses them, Resume goes on. */
async function checkWatch(page) {
  await page.selectOption("#game", "othello");
  await page.selectOption("#black", "engine");
  await page.selectOption("#white", "engine");
  await page.fill("#seconds", "0.1");
  await page.click("#new");
  await page.waitForFunction(() => document.querySelectorAll("#history li").length >= 4, null, { timeout: WAIT });
  await page.click("#stop");
  await page.waitForFunction(() => /paused/.test(document.getElementById("turn").textContent), null, { timeout: WAIT });
  const n = (await view(page)).history.length;
  check(!(await page.isDisabled("#resume")), "watch: Resume is offered when paused");
  await page.waitForTimeout(1000);
  check((await view(page)).history.length === n, "watch: no move while paused");
  await page.click("#resume");
  await page.waitForFunction((k) => document.querySelectorAll("#history li").length > k, n, { timeout: WAIT });
  await page.click("#stop");
  await page.selectOption("#black", "human");
}

const GAMES = [
  { game: "go", size: 9, prefs: ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5"], moves: 3 },
  { game: "othello", size: 8, prefs: ["f5", "d6", "c3", "f4", "e6", "c5"], moves: 3 },
  { game: "gomoku", size: 15, rule: "freestyle", prefs: ["H8", "J9", "G7", "H9", "J8", "G9", "K10"], moves: 3 },
  { game: "dots", cols: 3, rows: 2, prefs: [], moves: 3 },
];

async function launch(viewport) {
  const profile = mkdtempSync(join(tmpdir(), "quartet-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  return { context, done: async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); } };
}

async function openPage(context) {
  const page = context.pages()[0] || await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById("board").dataset.geometry, null, { timeout: WAIT });
  return { page, errors };
}

async function runTest() {
  const { context, done } = await launch({ width: 1200, height: 800 });
  try {
    const { page, errors } = await openPage(context);
    for (const g of GAMES) {
      let v = await startGame(page, g, 0.2);
      check(v.toMove === "black" && /Black|Blue/.test(v.turnText), `${g.game}: Black (Blue) to move at the start`);
      if (g.game === "othello") {
        check(v.stones.length === 4, `${g.game}: four discs at the start`);
        check(v.legal.length === 4, `${g.game}: four legal squares hinted (${v.legal})`);
      }
      for (let i = 0; i < g.moves && !v.over; i++) {
        const m = choose(v, g.prefs);
        check(m, `${g.game}: a move to play`);
        v = await humanMove(page, g.game, m);
        console.log(`${g.game}: ${v.history.map((h) => h.move).join(" ")}`);
      }
      if (g.game === "go") {
        // A click on an occupied point: a short error, nothing changed.
        const taken = v.stones[0].move;
        const n = v.history.length;
        await page.click(`#board .pt[data-move="${taken}"]`);
        await page.waitForSelector("#toasts .toast", { timeout: WAIT });
        check((await view(page)).history.length === n, "go: an illegal click changes nothing");
        // Undo goes back to Black's previous turn.
        await page.click("#undo");
        await page.waitForFunction((k) => document.querySelectorAll("#history li").length < k, n, { timeout: WAIT });
        const u = await waitHumanTurn(page);
        check(u.history.length === n - 2 && u.toMove === "black", `go: undo takes back the engine's reply and our move (${n} -> ${u.history.length})`);
      }
      if (!v.over) await checkAnalysis(page, g.game);
      await checkSaveLoad(page, g.game);
      console.log(`${g.game}: saved and loaded`);
    }
    await checkGameOver(page);
    console.log("dots 1x1: played to the end, the result shown");
    await checkFive(page);
    console.log("gomoku: a loaded five is marked and wins");
    await checkThinkingAnalysis(page);
    console.log("dots: analysis rows while the engine thinks on its own move");
    await checkWatch(page);
    console.log("watch: engine against engine, stopped and resumed");
    check(errors.length === 0, `no script errors on the page: ${errors.join("; ")}`);
    console.log("ok: all four games played by clicking");
  } finally {
    await done();
  }
}

const SHOTS = [
  { game: "go", size: 9, prefs: ["E5", "C4", "G5", "C6", "E7", "D3", "G3"], moves: 6 },
  { game: "othello", size: 8, prefs: ["f5", "d6", "c3", "f4", "e6", "c5", "f3", "c4"], moves: 6 },
  { game: "gomoku", size: 15, rule: "renju", prefs: ["H8", "J9", "G9", "J7", "G7", "K8"], moves: 4 },
  { game: "dots", cols: 4, rows: 4, prefs: [], moves: 20, boxes: 4 },
];

async function runShots() {
  const { context, done } = await launch({ width: 1200, height: 800 });
  try {
    const { page } = await openPage(context);
    const only = (process.env.SHOT_GAMES || "").split(",").filter(Boolean);
    for (const g of SHOTS.filter((s) => !only.length || only.includes(s.game))) {
      let v = await startGame(page, g, 0.3);
      for (let i = 0; i < g.moves && !v.over; i++) {
        // Dots: stop once some boxes are taken, so the picture shows them.
        if (g.boxes && (await page.locator("#board .box").count()) >= g.boxes) break;
        const m = g.game === "dots" ? await dotsChoice(page) : choose(v, g.prefs);
        if (!m) break;
        v = await humanMove(page, g.game, m);
      }
      console.log(`${g.game}: ${v.history.map((h) => h.move).join(" ")}${v.over ? " (over)" : ""}`);
      check(!v.over, `${g.game}: the game goes on for the picture with analysis`);
      await page.check("#analyze");
      await page.waitForFunction(() => document.querySelectorAll("#analysis tbody tr").length >= 1
        && document.querySelectorAll("#board .top-move").length >= 1, null, { timeout: WAIT });
      // Let the search gather a few updates before the picture.
      await page.waitForTimeout(2500);
      await page.screenshot({ path: join(outDir, `serve-${g.game}.png`) });
      await page.uncheck("#analyze");
      console.log(`wrote ${join(outDir, `serve-${g.game}.png`)}`);
    }
  } finally {
    await done();
  }
}

try {
  await (mode === "test" ? runTest() : runShots());
} catch (e) {
  console.error(e.stack || String(e));
  process.exit(1);
}
