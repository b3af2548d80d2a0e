#!/usr/bin/env python3
"""Self-play games on 9x9 for the Go move-model fit (`quartet train go mm`).

Usage: scripts/go_mm_games.py --games N --seed S --out FILE [--engine "GTP COMMAND"]

One GNU Go process (or any GTP engine given by --engine, e.g. Pachi) plays both colours.
Every game opens with 1-4 random moves on the third to seventh lines (so the games differ;
these are marked and not used as training targets), then GNU Go at a level drawn per game
(level 0 is written for --engine) plays both sides to two passes or a resignation.
Output: one game per line, `size 9 komi 7 random K level L moves C3 D4 ... pass pass`.

    nice -n 10 python3 scripts/go_mm_games.py --games 1000 --seed 1 --out games-1.txt

    python3 scripts/go_mm_games.py --games 500 --seed 11 --out pachi-11.txt \
        --engine "$HOME/pachi/pachi --nojoseki -t =2000 threads=1 -s 11"

Run two with different seeds on two cores; the records stay out of the repository.
"""
import argparse
import random
import shlex
import subprocess
import sys

COLS = "ABCDEFGHJ"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--gnugo", default="/usr/games/gnugo")
    ap.add_argument("--engine", help="GTP engine command instead of GNU Go (no levels)")
    ap.add_argument("--levels", default="0,1,1,2", help="GNU Go levels, one drawn per game")
    ap.add_argument("--max-moves", type=int, default=160)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    levels = [int(x) for x in a.levels.split(",")]
    cmd = shlex.split(a.engine) if a.engine else [a.gnugo, "--mode", "gtp", "--seed", str(a.seed)]
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, bufsize=1,
    )

    def gtp(cmd):
        proc.stdin.write(cmd + "\n")
        proc.stdin.flush()
        lines = []
        while True:
            line = proc.stdout.readline()
            if line == "":
                sys.exit("the engine exited")
            if line.strip() == "":
                if lines:
                    break
                continue
            lines.append(line.strip())
        head = lines[0]
        if not head.startswith("="):
            raise RuntimeError(f"{cmd}: {head}")
        return head[1:].strip()

    gtp("boardsize 9")
    gtp("komi 7")
    with open(a.out, "a") as out:
        for g in range(a.games):
            level = 0 if a.engine else rng.choice(levels)
            gtp("clear_board")
            if not a.engine:
                gtp(f"level {level}")
            k = rng.randint(1, 4)
            moves = []
            colour = "b"
            for _ in range(k):
                while True:
                    v = COLS[rng.randint(2, 6)] + str(rng.randint(3, 7))
                    if v not in moves:
                        break
                try:
                    gtp(f"play {colour} {v}")
                except RuntimeError:
                    continue
                moves.append(v)
                colour = "w" if colour == "b" else "b"
            nrand = len(moves)
            passes = 0
            while passes < 2 and len(moves) < a.max_moves:
                mv = gtp(f"genmove {colour}").upper()
                if mv == "RESIGN":
                    break
                moves.append(mv.lower() if mv == "PASS" else mv)
                passes = passes + 1 if mv == "PASS" else 0
                colour = "w" if colour == "b" else "b"
            out.write(f"size 9 komi 7 random {nrand} level {level} moves {' '.join(moves)}\n")
            out.flush()
    gtp("quit")


if __name__ == "__main__":
    main()
