#!/usr/bin/env python3
"""Where quartet's lost Gomoku games were lost, by a judge engine's long look at each move.

    python3 scripts/gomoku_loss_points.py --judge path/to/pbrain-rapfi --seconds 0.5 \
        --openings scripts/openings/gomoku15-balanced.txt OUT/records/game-*.sgf

For every record (15x15 SGF written by `quartet match gomoku`) that quartet lost, the judge
(a pbrain engine that reports `Eval`, as Rapfi does) scores the position after each of
quartet's moves after the opening (the longest line of --openings the game starts with),
for the opponent to move. Prints per game quartet's colour, the game's
length, the first of quartet's moves after which the judge finds a forced win for the
opponent (a mate), and the judge's score for quartet before it (how the game stood
when the move was played), and the first move after which that score fell below -300 (the
game tipped before any mate showed), then a summary: how many losses were already decided by the
opening moves, and the score just before the losing move.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gomoku_balanced_openings import Judge  # noqa: E402


def read_sgf(path):
    text = open(path).read()
    prop = lambda k: (re.search(rf"\b{k}\[([^\]]*)\]", text) or [None, ""])[1]
    moves = []
    for colour, xy in re.findall(r";([BW])\[([a-o]{2})\]", text):
        moves.append((colour, (ord(xy[0]) - 97, ord(xy[1]) - 97)))
    return prop("PB"), prop("PW"), prop("RE"), moves


def read_openings(path):
    out = []
    for line in open(path):
        text = line.split("#")[0].replace(",", " ").split()
        if text:
            out.append([("ABCDEFGHJKLMNOP".index(v[0].upper()), 15 - int(v[1:])) for v in text])
    return out


def opening_length(moves, openings):
    points = [p for _, p in moves]
    return max((len(o) for o in openings if points[: len(o)] == o), default=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--judge", required=True)
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--name", default="quartet", help="the engine whose losses are studied")
    ap.add_argument("--openings", help="the match's openings file (its moves are not judged)")
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    openings = read_openings(args.openings) if args.openings else []
    judge = Judge(args.judge, args.seconds)
    rows = []
    for path in args.records:
        pb, pw, result, moves = read_sgf(path)
        if args.name not in (pb, pw) or not result:
            continue
        ours = "B" if pb == args.name else "W"
        if result[0] == ours or result[0] not in "BW":
            continue
        first_lost, before, score, tipped = None, None, None, None
        skip = opening_length(moves, openings)
        for i, (colour, _) in enumerate(moves):
            if colour != ours or i < skip:
                continue
            stones = [p for _, p in moves[: i + 1]]
            s = judge.score(stones)  # for the opponent, to move
            if s is None:
                first_lost = i + 1
                break
            before = score
            score = -s
            if tipped is None and score < -300:
                tipped = i + 1
        rows.append((os.path.basename(path), ours, len(moves), first_lost, before, tipped))
        print(f"{rows[-1][0]} quartet {ours} moves {len(moves)} lost-after-move "
              f"{first_lost} score-before {before} below-300-after-move {tipped}", flush=True)
    judge.close()
    if not rows:
        print("no lost games")
        return
    found = [r for r in rows if r[3] is not None]
    print(f"\n{len(rows)} lost games; a forced loss found after one of quartet's moves in "
          f"{len(found)}")
    if found:
        plies = sorted(r[3] for r in found)
        print(f"that move's number: median {plies[len(plies) // 2]}, "
              f"min {plies[0]}, max {plies[-1]}")
        near = [r for r in found if r[4] is not None and abs(r[4]) <= 300]
        print(f"losses whose previous score was within +-300 (a game still open): "
              f"{len(near)} of {len(found)}")
    tipped = sorted(r[5] for r in rows if r[5] is not None)
    if tipped:
        print(f"move after which the score first fell below -300: median "
              f"{tipped[len(tipped) // 2]}, min {tipped[0]}, max {tipped[-1]} ({len(tipped)} games)")


if __name__ == "__main__":
    main()
