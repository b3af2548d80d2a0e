#!/usr/bin/env bash
# Full Gomoku engine vs the paper's configuration (window evaluation, width 5, depth 10, no
# threat search), 15x15 freestyle, from varied random openings, colours alternating per
# opening. Each engine is a `quartet gomoku` GTP process; a move one engine plays is sent to
# the other with `play`, which refuses illegal moves; the result is `final_score` (both
# engines must agree).
#
# usage: scripts/gomoku_vs_paper.sh [games=40] [seconds-per-move=1] [seed=1]
# env:   QUARTET=path/to/quartet (default: target/release/quartet)
#        FULL_ARGS="--width 8" extra options for the full engine
set -euo pipefail
GAMES=${1:-40}
SECS=${2:-1}
SEED=${3:-1}
BIN=${QUARTET:-${CARGO_TARGET_DIR:-target}/release/quartet}
exec python3 - "$BIN" "$GAMES" "$SECS" "$SEED" "${FULL_ARGS:-}" <<'PY'
import random, subprocess, sys
binary, games, secs, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
full_args = sys.argv[5].split()
COLS = "ABCDEFGHJKLMNOP"

class Engine:
    def __init__(self, extra):
        self.p = subprocess.Popen([binary, "gomoku", "--move-time", secs] + extra,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
    def cmd(self, c):
        self.p.stdin.write(c + "\n"); self.p.stdin.flush()
        lines = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise RuntimeError("engine died")
            if l.strip() == "" and lines:
                break
            if l.strip():
                lines.append(l.strip())
        a = " ".join(lines)
        return a[0] == "=", a[1:].strip()
    def close(self):
        try:
            self.cmd("quit")
        except Exception:
            pass
        self.p.wait()

def opening(rng):
    # 3 stones (B, W, B) within the central 5x5, distinct.
    pts = set()
    while len(pts) < 3:
        pts.add((rng.randint(5, 9), rng.randint(5, 9)))
    rng2 = list(pts); rng.shuffle(rng2)
    return ["%s%d" % (COLS[c], r + 1) for c, r in rng2]

rng = random.Random(seed)
score = {"full": 0.0, "paper": 0.0}
for g in range(games):
    if g % 2 == 0:
        op = opening(rng)
    full_black = (g % 2 == 0)
    engines = {"full": Engine(full_args), "paper": Engine(["--width", "5", "--depth", "10", "--no-threats"])}
    black, white = ("full", "paper") if full_black else ("paper", "full")
    for e in engines.values():
        ok, _ = e.cmd("setboard " + " ".join(op))
        assert ok
    color = "w"  # after 3 opening stones White moves
    moves = 0
    result = None
    while True:
        name = white if color == "w" else black
        other = black if color == "w" else white
        ok, mv = engines[name].cmd("genmove " + color)
        if not ok:
            result = "error: %s genmove: %s" % (name, mv); break
        ok, err = engines[other].cmd("play %s %s" % (color, mv))
        if not ok:
            result = "%s played an illegal move %s (%s)" % (name, mv, err); break
        moves += 1
        ok1, r1 = engines[name].cmd("final_score")
        ok2, r2 = engines[other].cmd("final_score")
        if ok1 or ok2:
            if r1 != r2:
                result = "disagreement %s vs %s" % (r1, r2)
            else:
                result = r1
            break
        color = "b" if color == "w" else "w"
    for e in engines.values():
        e.close()
    if result == "B+":
        score[black] += 1; win = black
    elif result == "W+":
        score[white] += 1; win = white
    elif result == "0":
        score["full"] += 0.5; score["paper"] += 0.5; win = "draw"
    else:
        win = result
    print("game %2d opening %-12s black=%-5s moves %3d result %-3s winner %s" %
          (g + 1, ",".join(op), black, moves + 3, result, win), flush=True)
n = games
print("full engine %.1f / %d (%.1f%%), paper config %.1f" % (score["full"], n, 100 * score["full"] / n, score["paper"]))
PY
