#!/usr/bin/env python3
"""Referee: quartet dots (GTP) against OpenSpiel's MCTS bot on Dots-and-Boxes.

    pip install open_spiel
    python3 scripts/dots_vs_openspiel.py --quartet target/release/quartet \
        --games 40 --seconds 1 --size 5 [--check-limit 22] [--log games.txt]

OpenSpiel's game `dots_and_boxes(num_rows=R,num_cols=C)` and its C++ MCTS bot
(`pyspiel.MCTSBot`, UCT c=2, one random rollout per leaf, MCTS-Solver on, a wall-clock
limit of --seconds per move) play quartet (`quartet dots --move-time S`): equal time per
move, one edge per move (a capture earns another move on both sides). Colours alternate;
each game gets its own MCTS seed.

Both rule implementations are checked against each other after every edge: the side to
move and the box counts agree, and at the end quartet's `final_score` matches OpenSpiel's
returns. After each game a second quartet process replays it and, for every quartet move
made with at most --check-limit undrawn edges (positions its solver finishes), compares
`solve` before and after the move: a move whose value is below the position's value
"loses value". Prints one line per game and a table.

Edge mapping: OpenSpiel numbers horizontal lines first, `h(r, c) = r * C + c` with row r
from the top, then vertical lines `v(r, c) = (R + 1) * C + r * (C + 1) + c`. quartet names
an edge by its two dots, columns a.. from the left, rows 1.. from the bottom.
"""
import argparse
import subprocess
import sys
import time

import pyspiel


def edge_name(action, rows, cols):
    h = (rows + 1) * cols
    if action < h:
        r, c = divmod(action, cols)
        y = rows - r
        return f"{chr(97 + c)}{y + 1}-{chr(98 + c)}{y + 1}"
    r, c = divmod(action - h, cols + 1)
    y = rows - r - 1
    return f"{chr(97 + c)}{y + 1}-{chr(97 + c)}{y + 2}"


class Gtp:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise RuntimeError(f"engine died after {line!r}")
            l = l.rstrip("\n")
            if l == "" and out:
                break
            if l:
                out.append(l)
        text = "\n".join(out)
        if not text.startswith("="):
            raise RuntimeError(f"{line!r} -> {text!r}")
        return text[1:].strip()

    def close(self):
        try:
            self.send("quit")
        except Exception:
            pass
        self.p.wait(timeout=10)


class Boxes:
    """Our own box count, to check both engines' rules."""

    def __init__(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.sides = [0] * (rows * cols)
        self.score = [0, 0]
        self.to_move = 0

    def boxes_of(self, a):
        rows, cols = self.rows, self.cols
        h = (rows + 1) * cols
        out = []
        if a < h:
            r, c = divmod(a, cols)
            if r > 0:
                out.append((r - 1) * cols + c)
            if r < rows:
                out.append(r * cols + c)
        else:
            r, c = divmod(a - h, cols + 1)
            if c > 0:
                out.append(r * cols + c - 1)
            if c < cols:
                out.append(r * cols + c)
        return out

    def play(self, a):
        done = 0
        for b in self.boxes_of(a):
            self.sides[b] += 1
            done += self.sides[b] == 4
        self.score[self.to_move] += done
        if done == 0:
            self.to_move ^= 1
        return done


def play_game(args, game, g, quartet_first):
    rows = cols = args.size
    state = game.new_initial_state()
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1000 + g), 2.0,
                          10 ** 9, 1000, True, 1000 + g, False,
                          pyspiel.ChildSelectionPolicy.UCT, args.seconds)
    q = Gtp([args.quartet, "dots", "--move-time", str(args.seconds)])
    q.send(f"boardsize {cols}x{rows}")
    boxes = Boxes(rows, cols)
    q_player = 0 if quartet_first else 1
    moves, movers = [], []
    spent = {"quartet": 0.0, "mcts": 0.0}
    n_moves = {"quartet": 0, "mcts": 0}
    names = {}
    for a in range(game.num_distinct_actions()):
        names[a] = edge_name(a, rows, cols)
    by_name = {v: k for k, v in names.items()}
    while not state.is_terminal():
        player = state.current_player()
        assert player == boxes.to_move, "side to move differs from OpenSpiel"
        colour = "b" if player == 0 else "w"
        t = time.monotonic()
        if player == q_player:
            answer = q.send(f"genmove {colour}").lower()
            a = by_name[answer]
            who = "quartet"
        else:
            a = bot.step(state)
            q.send(f"play {colour} {names[a]}")
            who = "mcts"
        spent[who] += time.monotonic() - t
        n_moves[who] += 1
        if a not in state.legal_actions():
            raise RuntimeError(f"illegal {names[a]} by {who}")
        state.apply_action(a)
        boxes.play(a)
        moves.append(names[a])
        movers.append(who)
    ret = state.returns()
    fs = q.send("final_score")
    q.close()
    margin0 = boxes.score[0] - boxes.score[1]
    expect = "0" if margin0 == 0 else (f"B+{margin0}" if margin0 > 0 else f"W+{-margin0}")
    assert fs == expect, f"quartet final_score {fs}, boxes {boxes.score}"
    assert (ret[0] > 0) == (margin0 > 0) and (ret[0] < 0) == (margin0 < 0), (ret, margin0)
    q_margin = margin0 if q_player == 0 else -margin0
    return q_margin, moves, movers, spent, n_moves


def value_losses(args, moves, movers):
    """(checked, lost): quartet moves from solvable positions, and those that lost value."""
    size = f"{args.size}x{args.size}"
    n_edges = 2 * args.size * (args.size + 1)
    o = Gtp([args.quartet, "dots", "--solve-limit", str(args.check_limit)])
    checked = lost = 0
    for i, (m, who) in enumerate(zip(moves, movers)):
        undrawn = n_edges - i
        if who != "quartet" or undrawn > args.check_limit:
            continue
        o.send("loadgame " + " ".join([size] + moves[:i]))
        before = int(o.send("solve").split()[0])
        taken = boxes_taken(o, size, moves, i)
        # The oracle's board is now after the move; a capture keeps the turn.
        after = int(o.send("solve").split()[0])
        value = taken + after if taken > 0 else -after
        checked += 1
        if value < before:
            lost += 1
            print(f"  value lost at move {i + 1} ({m}): {before} -> {value}", file=sys.stderr)
    o.close()
    return checked, lost


def boxes_taken(o, size, moves, i):
    o.send("loadgame " + " ".join([size] + moves[:i]))
    a = sum(int(x) for x in o.send("score").split()[1::2])
    o.send("loadgame " + " ".join([size] + moves[:i + 1]))
    b = sum(int(x) for x in o.send("score").split()[1::2])
    return b - a


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quartet", default="target/release/quartet")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--check-limit", type=int, default=22)
    ap.add_argument("--log", help="file for the move lists")
    ap.add_argument("--first-game", type=int, default=0,
                    help="index of the first game (seeds and colours follow it), to split a "
                         "match over several runs")
    args = ap.parse_args()
    game = pyspiel.load_game(f"dots_and_boxes(num_rows={args.size},num_cols={args.size})")
    wins = draws = losses = 0
    total_checked = total_lost = 0
    per_colour = {True: [0, 0, 0], False: [0, 0, 0]}
    tq = tm = nq = nm = 0
    log = open(args.log, "w") if args.log else None
    for g in range(args.first_game, args.first_game + args.games):
        first = g % 2 == 0
        margin, moves, movers, spent, n = play_game(args, game, g, first)
        checked, lost = value_losses(args, moves, movers)
        total_checked += checked
        total_lost += lost
        k = 0 if margin > 0 else (1 if margin == 0 else 2)
        per_colour[first][k] += 1
        wins += k == 0
        draws += k == 1
        losses += k == 2
        tq += spent["quartet"]
        tm += spent["mcts"]
        nq += n["quartet"]
        nm += n["mcts"]
        print(f"game {g + 1}: quartet {'first' if first else 'second'} margin {margin:+d} "
              f"s/move quartet {spent['quartet'] / max(1, n['quartet']):.2f} "
              f"mcts {spent['mcts'] / max(1, n['mcts']):.2f} "
              f"checked {checked} lost {lost}", flush=True)
        if log:
            log.write(f"{g + 1} {'quartet-first' if first else 'mcts-first'} {margin:+d} "
                      + " ".join(moves) + "\n")
            log.flush()
    played = wins + draws + losses
    print()
    print(f"quartet vs OpenSpiel MCTS, {args.size}x{args.size} boxes, {args.seconds} s/move")
    print(f"{'':16}{'win':>5}{'draw':>6}{'loss':>6}")
    print(f"{'quartet first':16}{per_colour[True][0]:>5}{per_colour[True][1]:>6}{per_colour[True][2]:>6}")
    print(f"{'quartet second':16}{per_colour[False][0]:>5}{per_colour[False][1]:>6}{per_colour[False][2]:>6}")
    print(f"{'total':16}{wins:>5}{draws:>6}{losses:>6}   "
          f"score {(wins + draws / 2) / max(1, played):.1%}")
    print(f"mean s/move: quartet {tq / max(1, nq):.2f}, mcts {tm / max(1, nm):.2f}")
    print(f"value check: {total_checked} quartet moves with <= {args.check_limit} undrawn "
          f"edges, {total_lost} lost value")


if __name__ == "__main__":
    main()
