#!/usr/bin/env python3
"""Balanced Gomoku openings: short random openings judged by a long search of a pbrain engine.

    python3 scripts/gomoku_balanced_openings.py --judge path/to/pbrain-rapfi \
        --candidates 300 --seconds 3 --keep 50 --seed 1 > scripts/openings/gomoku15-balanced.txt

Draws openings of 4 or 5 stones on 15x15 (Black first at the centre, each next stone on an
empty point of the central 7x7 square within two points of a stone already placed), drops
those that are the same up to the board's eight symmetries, and asks the judge for its
evaluation of each with --seconds to think (one thread, freestyle). An opening is balanced
when the judge's score is near 0: the side to move is neither winning nor lost, so a match
from it shows strength with both colours. Writes the --keep openings with the smallest
|score| in the format of `quartet match gomoku --openings` (GTP vertices, Black first), each
with its score from Black's side as a comment; prints the distribution of all scores on
stderr. With --score FILE it judges the openings of FILE instead (one line each on stdout).

The judge speaks the Gomocup protocol and reports `MESSAGE ... Eval N ...` while it thinks,
from the side to move's view (Rapfi does; a mate is printed as `+M..`/`-M..` and counts as
decided). Rapfi drops a command that arrives just as it answers, so each command after an
answer waits 30 ms.
"""
import argparse
import random
import re
import subprocess
import sys
import time

SIZE = 15
LETTERS = "ABCDEFGHJKLMNOP"
CENTRE = SIZE // 2


def symmetries(stones):
    """The eight images of a stone list (positions in order) under the board's symmetries."""
    out = []
    for k in range(8):
        img = []
        for x, y in stones:
            for _ in range(k % 4):
                x, y = SIZE - 1 - y, x
            if k >= 4:
                x = SIZE - 1 - x
            img.append((x, y))
        out.append(img)
    return out


def canonical(stones):
    """One key for all symmetric copies of an opening (same stones of each colour)."""
    keys = []
    for img in symmetries(stones):
        black = tuple(sorted(img[0::2]))
        white = tuple(sorted(img[1::2]))
        keys.append((black, white))
    return min(keys)


def draw(rng, n):
    stones = [(CENTRE, CENTRE)]
    lo, hi = CENTRE - 3, CENTRE + 3
    while len(stones) < n:
        x, y = rng.randint(lo, hi), rng.randint(lo, hi)
        if (x, y) in stones:
            continue
        if min(max(abs(x - a), abs(y - b)) for a, b in stones) > 2:
            continue
        stones.append((x, y))
    return stones


def vertex(p):
    x, y = p
    return f"{LETTERS[x]}{SIZE - y}"


class Judge:
    def __init__(self, path, seconds):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.ms = int(seconds * 1000)
        self.send("START 15")
        self.expect_ok()
        for line in ["INFO rule 0", "INFO THREAD_NUM 1", f"INFO timeout_turn {self.ms}",
                     "INFO timeout_match 0", "INFO SHOW_DETAIL 1"]:
            self.send(line)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def expect_ok(self):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("judge exited")
            if line.strip() == "OK":
                return
            if line.startswith("ERROR"):
                sys.exit(f"judge: {line.strip()}")

    def score(self, stones):
        """The judge's last reported score for the side to move (None: a mate)."""
        mover = len(stones) % 2  # 0: Black to move
        self.send("RESTART")
        self.expect_ok()
        time.sleep(0.03)
        self.send("BOARD")
        for i, (x, y) in enumerate(stones):
            self.send(f"{x},{y},{1 if i % 2 == mover else 2}")
        self.send("DONE")
        last = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("judge exited")
            m = re.search(r"\bEval (\S+)", line)
            if m:
                last = m.group(1)
            if re.fullmatch(r"\d+,\d+", line.strip()):
                break
        time.sleep(0.03)
        if last is None or "M" in last:
            return None
        return int(last)

    def close(self):
        self.send("END")
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()


def parse_vertex(v):
    return LETTERS.index(v[0].upper()), SIZE - int(v[1:])


def score_file(args):
    judge = Judge(args.judge, args.seconds)
    for line in open(args.score):
        text = line.split("#")[0].replace(",", " ").split()
        if not text:
            continue
        stones = [parse_vertex(v) for v in text]
        s = judge.score(stones)
        black = "mate" if s is None else (s if len(stones) % 2 == 0 else -s)
        print(f"{' '.join(text)}  {black}", flush=True)
    judge.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--judge", required=True, help="a pbrain engine that reports Eval (Rapfi)")
    ap.add_argument("--candidates", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=3.0, help="the judge's time per opening")
    ap.add_argument("--keep", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--score", metavar="FILE", help="judge the openings of FILE instead")
    args = ap.parse_args()
    if args.score:
        score_file(args)
        return
    rng = random.Random(args.seed)
    seen, cands = set(), []
    while len(cands) < args.candidates:
        stones = draw(rng, rng.choice([4, 5]))
        key = canonical(stones)
        if key not in seen:
            seen.add(key)
            cands.append(stones)
    judge = Judge(args.judge, args.seconds)
    scored = []
    for i, stones in enumerate(cands):
        s = judge.score(stones)
        # From Black's side: after an even number of stones Black is to move.
        black = None if s is None else (s if len(stones) % 2 == 0 else -s)
        scored.append((black, stones))
        print(f"{i + 1}/{len(cands)} {' '.join(map(vertex, stones))} {black}",
              file=sys.stderr, flush=True)
    judge.close()
    decided = [s for s in scored if s[0] is None]
    valued = sorted((s for s in scored if s[0] is not None), key=lambda s: abs(s[0]))
    for limit in (25, 50, 100, 200, 400):
        n = sum(1 for b, _ in valued if abs(b) <= limit)
        print(f"|score| <= {limit}: {n}", file=sys.stderr)
    print(f"mates found: {len(decided)} of {len(scored)}", file=sys.stderr)
    keep = valued[:args.keep]
    print("# Balanced Gomoku openings on 15x15 for `quartet match gomoku --openings`: GTP vertices")
    print("# (letters skip I, row 1 at the bottom), Black first; each is played with both colours.")
    print(f"# Made by scripts/gomoku_balanced_openings.py --candidates {args.candidates} "
          f"--seconds {args.seconds:g} --keep {args.keep} --seed {args.seed}")
    print("# with Rapfi as the judge: the openings of 4 and 5 stones whose score, after a long")
    print("# search, is nearest 0. The comment is that score from Black's side (judge's units).")
    for black, stones in keep:
        print(f"{' '.join(map(vertex, stones))}  # {black:+d}")


if __name__ == "__main__":
    main()
