#!/usr/bin/env python3
"""Balanced Othello openings (XOT-style): random 8-move openings judged near even by Zebra.

    python3 scripts/othello_balanced_openings.py --zebra ZEBRA_DIR --candidates 600 \
        --depth 20 --keep 100 --seed 1 > scripts/openings/othello-balanced.txt

Draws openings of --plies moves (8, as XOT) from the start position, each move uniformly among
the legal ones; drops openings with a pass and those whose position is the same as an earlier
one's up to the board's eight symmetries. Zebra (ZEBRA_DIR as for scripts/zebra_gtp.py: the
console binary with the one-move print, and its coeffs2.bin) searches each position to
--depth plies, no book; its score is in discs for the side to move. An opening is balanced when
that score is near 0: a match from it shows strength with both colours instead of the opening.
Writes the --keep openings with the smallest |score| in the format of `quartet match othello
--openings` (one line of moves each), each after a comment with its score from Black's side;
prints the distribution of all scores on stderr. With --score FILE it judges the openings of
FILE instead (one comment line with the score before each).
"""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def start():
    b = [[0] * 8 for _ in range(8)]
    b[3][3] = b[4][4] = -1  # white on d4, e5 (row 0 is rank 1)
    b[3][4] = b[4][3] = 1  # black on e4, d5
    return b


def flips(b, r, c, me):
    if b[r][c]:
        return []
    out = []
    for dr, dc in DIRS:
        line, rr, cc = [], r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and b[rr][cc] == -me:
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and b[rr][cc] == me:
            out += line
    return out


def legal(b, me):
    return [(r, c) for r in range(8) for c in range(8) if flips(b, r, c, me)]


def play(b, r, c, me):
    for rr, cc in flips(b, r, c, me):
        b[rr][cc] = me
    b[r][c] = me


def name(r, c):
    return "abcdefgh"[c] + str(r + 1)


def parse(sq):
    return int(sq[1]) - 1, "abcdefgh".index(sq[0])


def canonical(b):
    forms = []
    for t in range(8):
        cells = []
        for r in range(8):
            for c in range(8):
                rr, cc = (r, c) if t & 1 == 0 else (c, r)
                if t & 2:
                    rr = 7 - rr
                if t & 4:
                    cc = 7 - cc
                cells.append(b[rr][cc])
        forms.append(tuple(cells))
    return min(forms)


def replay(moves):
    """The position after `moves` (no pass allowed) and the side to move, or None."""
    b, me = start(), 1
    for sq in moves:
        r, c = parse(sq)
        if not flips(b, r, c, me):
            return None
        play(b, r, c, me)
        me = -me
        if not legal(b, me):
            return None
    return b, me


def draw(rng, plies):
    b, me, moves = start(), 1, []
    for _ in range(plies):
        options = legal(b, me)
        if not options:
            return None
        r, c = rng.choice(options)
        play(b, r, c, me)
        moves.append(name(r, c))
        me = -me
    if not legal(b, me):
        return None
    return moves, b


def judge(zebra_dir, depth, moves):
    """Zebra's score in discs for the side to move after `moves`."""
    d = str(depth)
    run = subprocess.run(
        ["./zebra", "-e", "1", "-b", "0", "-r", "0", "-l", d, d, d, d, d, d,
         "-seq", "".join(moves)],
        cwd=zebra_dir, env=dict(os.environ, ZEBRA_ONE_MOVE="1"),
        capture_output=True, text=True, timeout=3600)
    scores = re.findall(r"^-->\s+\S+\s+([-+]?\d+(?:\.\d+)?)", run.stdout, re.M)
    if not scores:
        sys.exit("zebra printed no score for " + " ".join(moves) + ": " + run.stdout[-300:])
    return float(scores[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--zebra", required=True, help="folder with zebra and coeffs2.bin")
    ap.add_argument("--candidates", type=int, default=600)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--depth", type=int, default=20, help="Zebra's search depth")
    ap.add_argument("--keep", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="Zebra processes at a time")
    ap.add_argument("--score", help="judge the openings of this file instead")
    args = ap.parse_args()
    zebra_dir = os.path.abspath(args.zebra)
    if not os.path.exists(os.path.join(zebra_dir, "zebra")):
        sys.exit(f"{zebra_dir}/zebra missing (see scripts/zebra_gtp.py)")

    openings = []
    if args.score:
        with open(args.score) as f:
            for line in f:
                moves = line.split("#")[0].split()
                if moves:
                    if replay([m.lower() for m in moves]) is None:
                        sys.exit(f"not a pass-free opening: {line.strip()}")
                    openings.append([m.lower() for m in moves])
    else:
        rng = random.Random(args.seed)
        seen = set()
        tries = 0
        while len(openings) < args.candidates and tries < 100 * args.candidates:
            tries += 1
            got = draw(rng, args.plies)
            if got is None:
                continue
            key = canonical(got[1])
            if key not in seen:
                seen.add(key)
                openings.append(got[0])

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        mover = pool.map(lambda m: judge(zebra_dir, args.depth, m), openings)
        # From Black's side: Black is to move after an even number of pass-free moves.
        scores = [s if len(m) % 2 == 0 else -s for s, m in zip(mover, openings)]

    if args.score:
        for m, s in zip(openings, scores):
            print(f"# Zebra depth {args.depth}: {s:+.2f} for Black\n{' '.join(m)}")
        return
    ranked = sorted(zip(scores, openings), key=lambda x: abs(x[0]))
    kept = ranked[:args.keep]
    print(f"# {len(kept)} Othello openings of {args.plies} moves for `quartet match othello "
          f"--openings`,\n# the most even of {len(openings)} drawn (Zebra depth {args.depth}, "
          f"discs for Black):\n# python3 scripts/othello_balanced_openings.py --candidates "
          f"{args.candidates} --depth {args.depth} --keep {args.keep} --seed {args.seed}")
    for s, m in kept:
        print(f"# {s:+.2f}\n{' '.join(m)}")
    buckets = {}
    for s in scores:
        k = min(int(abs(s) // 2) * 2, 20)
        buckets[k] = buckets.get(k, 0) + 1
    print("|score| (discs, by 2): " + ", ".join(
        f"{k}{'+' if k == 20 else ''}: {buckets[k]}" for k in sorted(buckets)), file=sys.stderr)
    print(f"kept {len(kept)} within {min(abs(s) for s, _ in kept):+.2f}..."
          f"{max(abs(s) for s, _ in kept):.2f}; mean over all {sum(scores) / len(scores):+.2f}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
