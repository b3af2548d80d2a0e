#!/usr/bin/env python3
# Two `quartet gomoku --pbrain` brains play each other, 10 moves each at timeout_turn 500
# (as tests/gomoku_pbrain_game.rs does), and the depth and source each brain logged for
# every move are printed.
#
# usage: scripts/pbrain_depths.py [path/to/quartet] (default target/release/quartet)
import re
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/quartet"


def brain():
    return subprocess.Popen([BIN, "gomoku", "--pbrain", "--log-level", "info"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)


def ask(p, line):
    p.stdin.write(line + "\n")
    p.stdin.flush()
    return p.stdout.readline().strip()


black, white = brain(), brain()
for p in (black, white):
    assert ask(p, "START 15") == "OK"
    p.stdin.write("INFO timeout_turn 500\n")
last = ask(black, "BEGIN")
for i in range(10):
    last = ask(white, "TURN " + last)
    if "," not in last or i == 9:
        break
    last = ask(black, "TURN " + last)
    if "," not in last:
        break
for name, p in (("black", black), ("white", white)):
    p.stdin.write("END\n")
    p.stdin.close()
    p.wait()
    for line in p.stderr.read().splitlines():
        m = re.search(r'depth=(\d+).*source="([\w-]+)".*ms=(\d+)', line)
        if m:
            print(name, "depth", m.group(1), m.group(2), "ms", m.group(3))
