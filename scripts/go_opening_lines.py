#!/usr/bin/env python3
"""Share of each engine's first moves that land on the first or second line, from the SGF
records of `quartet match go`.

Usage: scripts/go_opening_lines.py [--skip N] [--moves M] RECORDS_DIR...
  --skip N   plies of the match's forced opening to ignore (--random-openings N, or the
             length of the --openings lines); default 0
  --moves M  how many of each engine's own moves after the forced opening count (default 5)
Prints, per engine name (SGF PB/PW): moves counted, how many on lines 1-2, the share.
"""
import re
import sys
from collections import defaultdict
from pathlib import Path


def main(argv):
    skip, count, dirs = 0, 5, []
    it = iter(argv)
    for a in it:
        if a == "--skip":
            skip = int(next(it))
        elif a == "--moves":
            count = int(next(it))
        else:
            dirs.append(Path(a))
    if not dirs:
        print(__doc__, file=sys.stderr)
        return 2
    total = defaultdict(int)
    low = defaultdict(int)
    for d in dirs:
        for f in sorted(d.glob("*.sgf")):
            text = f.read_text()
            size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
            names = {
                "B": re.search(r"PB\[([^\]]*)\]", text).group(1),
                "W": re.search(r"PW\[([^\]]*)\]", text).group(1),
            }
            moves = re.findall(r";([BW])\[([a-s]{2})?\]", text)
            seen = defaultdict(int)
            for colour, vertex in moves[skip:]:
                if seen[colour] >= count:
                    continue
                seen[colour] += 1
                name = names[colour]
                total[name] += 1
                if not vertex:
                    continue
                col, row = ord(vertex[0]) - 97, ord(vertex[1]) - 97
                line = min(col, row, size - 1 - col, size - 1 - row) + 1
                if line <= 2:
                    low[name] += 1
    for name in sorted(total):
        share = 100.0 * low[name] / total[name]
        print(f"{name}\t{total[name]} moves\t{low[name]} on lines 1-2\t{share:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
