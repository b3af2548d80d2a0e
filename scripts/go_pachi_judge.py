#!/usr/bin/env python3
"""Pachi as the judge of lost Go games: where did quartet's game turn?

Usage: scripts/go_pachi_judge.py PACHI_BINARY PLAYOUTS GAME.sgf... > judge.jsonl

For each SGF (quartet's name in PB or PW), Pachi (`--nojoseki -t =PLAYOUTS threads=1`,
run from its own directory so it finds its pattern files) searches the position before
every third move of quartet, and before every quartet move of the stretch where its win
rate for quartet first falls below 0.3. Each line of output is one position: the game,
the move number, Pachi's choice for quartet and its win rate for quartet. Pachi at a few
thousand playouts is noisy (a few points of win rate); read drops over several moves.
"""
import json
import os
import re
import subprocess
import sys

LETTERS = "ABCDEFGHJKLMNOPQRST"


def vertex(x, size):
    if not x:
        return "pass"
    return LETTERS[ord(x[0]) - 97] + str(size - (ord(x[1]) - 97))


def pachi_winrate(pachi, playouts, size, komi, moves, k):
    """Pachi's choice and win rate for the player of move k, before move k."""
    cmds = [f"boardsize {size}", "clear_board", f"komi {komi}"]
    cmds += [f"play {c} {vertex(x, size)}" for c, x in moves[: k - 1]]
    cmds += [f"genmove {moves[k - 1][0].lower()}", "quit"]
    p = subprocess.run(
        [pachi, "--nojoseki", "-t", f"={playouts}", "threads=1"],
        input="\n".join(cmds) + "\n",
        capture_output=True,
        text=True,
        cwd=os.path.dirname(os.path.abspath(pachi)),
    )
    found = re.findall(r"\*\*\* WINNER is (\S+) with score ([0-9.]+)%", p.stderr)
    return (found[-1][0], float(found[-1][1]) / 100) if found else (None, None)


def judge(pachi, playouts, path):
    s = open(path).read()
    size = int(re.search(r"SZ\[(\d+)\]", s).group(1))
    komi = float(re.search(r"KM\[([-0-9.]+)\]", s).group(1))
    moves = re.findall(r";([BW])\[([a-z]*)\]", s)
    ours = "B" if "PB[quartet]" in s else "W"
    mine = [i + 1 for i, (c, _) in enumerate(moves) if c == ours]
    seen = {}

    def ev(k):
        if k not in seen:
            mv, w = pachi_winrate(pachi, playouts, size, komi, moves, k)
            seen[k] = w
            print(json.dumps(dict(game=path, move=k, pachi_move=mv, wr=w)), flush=True)
        return seen[k]

    prev = mine[0]
    for k in mine[2::3]:
        w = ev(k)
        if w is not None and w < 0.3:
            for kk in mine:
                if prev < kk < k:
                    ev(kk)
            break
        prev = k


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    for f in sys.argv[3:]:
        judge(sys.argv[1], sys.argv[2], f)
