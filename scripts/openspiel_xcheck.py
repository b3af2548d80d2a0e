#!/usr/bin/env python3
"""Rule cross-check of quartet against OpenSpiel (PyPI `open_spiel`, `import pyspiel`).

Usage: scripts/openspiel_xcheck.py GAME [--games N] [--seed S] [--quartet PATH] [--size RxC]

Random games are played in OpenSpiel (it picks every move uniformly among its legal
actions) and, move by move, through a quartet engine over its text protocol. After every
move the two are compared; any difference is printed with the game's seed and move list
so it can be replayed, and the exit status is 1.

What is compared, per game:
  go 9x9, komi 7.5   every empty point without an empty neighbour (the only points where
                     suicide or ko can forbid a move) is tried with `play` + `undo` and
                     must be legal exactly when OpenSpiel lists it, except that quartet
                     plays positional superko and OpenSpiel only simple ko: a move
                     OpenSpiel allows that recreates an earlier board is counted apart, and
                     the random player avoids such moves; the board after every
                     move (`showboard`: stones, so captures); at the end OpenSpiel's winner
                     against a Tromp-Taylor area count of quartet's board with komi 7.5
                     (quartet's `final_score` removes dead stones it estimates by playouts,
                     which OpenSpiel does not do, so it is not the thing to compare).
  othello            legal moves (`gogui-rules_legal_moves`), board, side to move (OpenSpiel
                     passes explicitly, quartet automatically), game end and the winner
                     (`gogui-rules_final_result`).
  gomoku 15x15       OpenSpiel's gomoku is freestyle (five or more wins: six in a row ends
                     its game too), so quartet runs `rule freestyle`: legal moves, board,
                     game end and winner after every move.
  dots RxC           every OpenSpiel move is accepted by `play` for the side OpenSpiel says
                     is to move; the side to move (a completed box keeps the turn) and the
                     boxes of each side (`score`) after every move; at the end the margin
                     (OpenSpiel with utility_margin=true) against `final_score`.

GAME is go, othello, gomoku or dots. Prints one summary line:
  xcheck GAME: N games, M moves, D differences, T s
"""
import argparse
import random
import signal
import subprocess
import sys
import time

try:
    import pyspiel
except ImportError:
    print("openspiel_xcheck: pyspiel is not installed (pip install open_spiel)", file=sys.stderr)
    sys.exit(77)

GO_COLS = "ABCDEFGHJKLMNOPQRST"


class Engine:
    """A GTP engine on pipes; commands carry ids and answers are checked against them."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.next_id = 1

    def batch(self, commands):
        """Sends all commands at once, returns [(ok, body)] in order."""
        ids = []
        text = []
        for c in commands:
            ids.append(self.next_id)
            text.append(f"{self.next_id} {c}\n")
            self.next_id += 1
        self.proc.stdin.write("".join(text))
        self.proc.stdin.flush()
        return [self._answer(i) for i in ids]

    def cmd(self, command):
        return self.batch([command])[0]

    def _answer(self, want):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError("engine died")
            line = line.rstrip("\r\n")
            if not lines and line == "":
                continue
            if line == "" and lines:
                break
            lines.append(line)
        first = lines[0]
        ok = first[0] == "="
        if first[0] not in "=?":
            raise RuntimeError(f"malformed answer {first!r}")
        head = first[1:]
        digits = len(head) - len(head.lstrip("0123456789"))
        if head[:digits] != str(want):
            raise RuntimeError(f"answer {first!r} to command {want}")
        body = "\n".join([head[digits:].strip()] + lines[1:]).strip("\n")
        return ok, body.strip() if len(lines) == 1 else body

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Diff(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Diff(what)


# ---------------------------------------------------------------- go


def go_vertex(a, n):
    if a == n * n:
        return "pass"
    r, c = divmod(a, n)
    return f"{GO_COLS[c]}{r + 1}"


def go_board_openspiel(state, n):
    """{(col, row): 'X'|'O'} from OpenSpiel's text (rows n..1, 'X' black, 'O' white)."""
    stones = {}
    for line in str(state).splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and len(parts[1]) == n:
            row = int(parts[0])
            for c, ch in enumerate(parts[1]):
                if ch in "XO":
                    stones[(c, row)] = ch
    return stones


def go_board_quartet(text, n):
    stones = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= n + 2 and parts[0].isdigit() and parts[n + 1] == parts[0]:
            row = int(parts[0])
            for c, ch in enumerate(parts[1 : n + 1]):
                if ch in "XO":
                    stones[(c, row)] = ch
    return stones


def tromp_taylor(stones, n):
    """Black area minus White area: stones plus empty regions reaching one colour only."""
    score = sum(1 if v == "X" else -1 for v in stones.values())
    seen = set()
    for c in range(n):
        for r in range(1, n + 1):
            if (c, r) in stones or (c, r) in seen:
                continue
            region, border, todo = 0, set(), [(c, r)]
            seen.add((c, r))
            while todo:
                p = todo.pop()
                region += 1
                for q in ((p[0] + 1, p[1]), (p[0] - 1, p[1]), (p[0], p[1] + 1), (p[0], p[1] - 1)):
                    if not (0 <= q[0] < n and 1 <= q[1] <= n):
                        continue
                    if q in stones:
                        border.add(stones[q])
                    elif q not in seen:
                        seen.add(q)
                        todo.append(q)
            if border == {"X"}:
                score += region
            elif border == {"O"}:
                score -= region
    return score


def go_repeats(state, a, history):
    """Whether action `a` recreates a board of the game so far (positional superko).
    Quartet forbids that; OpenSpiel's go checks only simple ko, so such a move is a rule
    variant, counted apart, not a difference."""
    after = state.clone()
    after.apply_action(a)
    return str(go_board_openspiel(after, 9)) in history


def play_go(eng, game, rng, stats, n=9, komi=7.5):
    eng.batch([f"boardsize {n}", "clear_board", f"komi {komi}"])
    state = game.new_initial_state()
    moves = []
    stones = {}
    history = {str({})}
    while not state.is_terminal():
        color = "b" if state.current_player() == 0 else "w"
        legal = set(state.legal_actions())
        # Points where only suicide or ko can forbid a move: no empty neighbour.
        for c in range(n):
            for r in range(1, n + 1):
                if (c, r) in stones:
                    continue
                nbrs = [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)]
                if any(0 <= q[0] < n and 1 <= q[1] <= n and q not in stones for q in nbrs):
                    continue
                a = (r - 1) * n + c
                v = go_vertex(a, n)
                ok, msg = eng.cmd(f"play {color} {v}")
                if ok:
                    check(eng.cmd("undo")[0], f"undo after {v} refused")
                if not ok and a in legal and go_repeats(state, a, history):
                    stats["superko"] += 1
                    continue
                check(
                    ok == (a in legal),
                    f"{color} {v}: quartet {'legal' if ok else 'illegal (' + msg + ')'}, "
                    f"OpenSpiel {'legal' if a in legal else 'illegal'}",
                )
        # Random play under positional superko: OpenSpiel's moves that repeat a board are
        # left out (quartet refuses them, as checked above).
        choices = [a for a in sorted(legal) if a == n * n or not go_repeats(state, a, history)]
        a = rng.choice(choices)
        v = go_vertex(a, n)
        moves.append(f"{color} {v}")
        state.apply_action(a)
        (ok, msg), (_, board) = eng.batch([f"play {color} {v}", "showboard"])
        check(ok, f"{color} {v} legal in OpenSpiel, quartet: {msg}")
        stones = go_board_quartet(board, n)
        theirs = go_board_openspiel(state, n)
        check(stones == theirs, f"boards differ after {color} {v}: "
              f"quartet only {sorted(set(stones.items()) - set(theirs.items()))}, "
              f"OpenSpiel only {sorted(set(theirs.items()) - set(stones.items()))}")
        history.add(str(theirs))
        stats["moves"] += 1
    area = tromp_taylor(stones, n) - komi
    ret = state.returns()[0]
    check((area > 0) == (ret > 0), f"Tromp-Taylor {area:+} on quartet's board, OpenSpiel {ret:+}")
    return moves


# ---------------------------------------------------------------- othello


def othello_square(a):
    r, c = divmod(a, 8)
    return f"{'abcdefgh'[c]}{r + 1}"


def othello_board_openspiel(state):
    board = {}
    for line in str(state).splitlines():
        parts = line.split()
        if len(parts) == 10 and parts[0].isdigit() and parts[0] == parts[-1]:
            for c, ch in enumerate(parts[1:9]):
                board[f"{'abcdefgh'[c]}{parts[0]}"] = {"x": "X", "o": "O"}.get(ch, ".")
    return board


def othello_board_quartet(text):
    rows = [l.split() for l in text.splitlines() if len(l.split()) == 8]
    board = {}
    for i, row in enumerate(rows):  # row 8 first
        for c, ch in enumerate(row):
            board[f"{'abcdefgh'[c]}{8 - i}"] = ch
    return board


def play_othello(eng, game, rng, stats):
    # A move's `play` travels in one batch with the queries about the position after it.
    pending = ["clear_board"]
    state = game.new_initial_state()
    moves = []
    while True:
        (ok, msg), board, legal_q, side, result = eng.batch(
            pending + ["gogui-rules_board", "gogui-rules_legal_moves",
                       "gogui-rules_side_to_move", "gogui-rules_final_result"]
        )
        check(ok, f"{pending[0]} refused: {msg}")
        check(othello_board_quartet(board[1]) == othello_board_openspiel(state),
              f"boards differ after {moves[-1:]}")
        legal_s = state.legal_actions() if not state.is_terminal() else []
        if legal_s == [64]:
            # OpenSpiel passes explicitly; quartet has passed already.
            state.apply_action(64)
            moves.append("pass")
            pending = ["gogui-rules_side_to_move"]  # a harmless stand-in for `play`
            continue
        mine = sorted(m.lower() for m in legal_q[1].split())
        theirs = sorted(othello_square(a) for a in legal_s)
        check(mine == theirs, f"legal moves: quartet {mine}, OpenSpiel {theirs}")
        if state.is_terminal():
            check(result[1] != "unknown", "OpenSpiel ended the game, quartet did not")
            ret = state.returns()[0]
            q = result[1]
            sign = 0 if q in ("0", "Draw") else (1 if q.startswith("B+") else -1)
            check(sign == (ret > 0) - (ret < 0), f"result: quartet {q}, OpenSpiel {ret:+}")
            return moves
        check(result[1] == "unknown", f"quartet ended the game ({result[1]}), OpenSpiel did not")
        color = "black" if state.current_player() == 0 else "white"
        check(side[1] == color, f"side to move: quartet {side[1]}, OpenSpiel {color}")
        a = rng.choice(legal_s)
        sq = othello_square(a)
        moves.append(sq)
        state.apply_action(a)
        pending = [f"play {color[0]} {sq}"]
        stats["moves"] += 1


# ---------------------------------------------------------------- gomoku


def gomoku_vertex(a, n=15):
    r, c = divmod(a, n)
    return f"{GO_COLS[c]}{r + 1}"


def gomoku_board_openspiel(state, n=15):
    rows = [l for l in str(state).splitlines() if len(l) == n and set(l) <= set(".bw")]
    board = {}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            board[(c, r)] = {"b": "X", "w": "O"}.get(ch, ".")
    return board


def gomoku_board_quartet(text, n=15):
    rows = [l.split() for l in text.splitlines() if len(l.split()) == n]
    board = {}
    for i, row in enumerate(rows):  # top line is row n
        for c, ch in enumerate(row):
            board[(c, n - 1 - i)] = ch
    return board


def play_gomoku(eng, game, rng, stats, n=15):
    eng.batch([f"boardsize {n}", "rule freestyle"])
    # A move's `play` travels in one batch with the queries about the position after it.
    pending = "clear_board"
    state = game.new_initial_state()
    moves = []
    while True:
        (ok, msg), board, legal_q, result = eng.batch(
            [pending, "gogui-rules_board", "gogui-rules_legal_moves", "gogui-rules_final_result"]
        )
        check(ok, f"{pending} refused: {msg}")
        check(gomoku_board_quartet(board[1], n) == gomoku_board_openspiel(state, n),
              f"boards differ after {moves[-1:]}")
        legal_s = state.legal_actions() if not state.is_terminal() else []
        mine = sorted(legal_q[1].split())
        theirs = sorted(gomoku_vertex(a, n) for a in legal_s)
        check(mine == theirs, f"legal moves differ: {len(mine)} quartet, {len(theirs)} OpenSpiel")
        if state.is_terminal():
            check(result[1] != "unknown", "OpenSpiel ended the game, quartet did not")
            ret = state.returns()[0]
            q = result[1]
            sign = 0 if q in ("0", "Draw") else (1 if q.startswith("B+") else -1)
            check(sign == (ret > 0) - (ret < 0), f"result: quartet {q}, OpenSpiel {ret:+}")
            return moves
        check(result[1] == "unknown", f"quartet ended the game ({result[1]}), OpenSpiel did not")
        color = "b" if state.current_player() == 0 else "w"
        a = rng.choice(legal_s)
        v = gomoku_vertex(a, n)
        moves.append(f"{color} {v}")
        state.apply_action(a)
        pending = f"play {color} {v}"
        stats["moves"] += 1


# ---------------------------------------------------------------- dots


def dots_edges(game, rows, cols):
    """OpenSpiel action -> quartet edge. OpenSpiel names `P1(h,r,c)` (horizontal line r,
    segment c) and `P1(v,r,c)` (vertical: between lines r and r+1, at column c). Line r is
    mapped to dot row rows+1-r: a reflection, which preserves the boxes each edge borders."""
    state = game.new_initial_state()
    table = {}
    letters = "abcdefghi"
    for a in state.legal_actions():
        s = state.action_to_string(0, a)
        kind, r, c = s[s.index("(") + 1 : -1].split(",")
        r, c = int(r), int(c)
        y = rows + 1 - r
        if kind == "h":
            table[a] = f"{letters[c]}{y}-{letters[c + 1]}{y}"
        else:
            table[a] = f"{letters[c]}{y - 1}-{letters[c]}{y}"
    return table


def play_dots(eng, game, rng, stats, rows, cols, edges):
    eng.batch([f"boardsize {cols}x{rows}", "clear_board"])
    state = game.new_initial_state()
    moves = []
    while not state.is_terminal():
        color = "black" if state.current_player() == 0 else "white"
        a = rng.choice(state.legal_actions())
        e = edges[a]
        moves.append(f"{color[0]} {e}")
        state.apply_action(a)
        (ok, msg), (_, board), (_, score) = eng.batch([f"play {color[0]} {e}", "showboard", "score"])
        check(ok, f"{color} {e} refused: {msg}")
        text = str(state)
        boxes = f"black {text.count('1')} white {text.count('2')}"
        check(score == boxes, f"after {e}: quartet {score}, OpenSpiel {boxes}")
        if not state.is_terminal():
            nxt = "black" if state.current_player() == 0 else "white"
            check(board.rstrip().endswith(f"{nxt} to move"),
                  f"after {e}: OpenSpiel says {nxt} to move, quartet: {board.splitlines()[-1]}")
        stats["moves"] += 1
    ok, fs = eng.cmd("final_score")
    margin = state.returns()[0]
    want = "0" if margin == 0 else (f"B+{int(margin)}" if margin > 0 else f"W+{int(-margin)}")
    check(fs == want, f"final score: quartet {fs}, OpenSpiel {want}")
    return moves


# ---------------------------------------------------------------- driver


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("game", choices=["go", "othello", "gomoku", "dots"])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quartet", default="target/release/quartet")
    p.add_argument("--size", default="3x3", help="dots: ROWSxCOLS boxes (several: 2x2,3x5)")
    p.add_argument("--max-diffs", type=int, default=20, help="stop after this many differences")
    a = p.parse_args()

    start = time.time()
    stats = {"moves": 0, "superko": 0}
    diffs = 0
    eng = Engine([a.quartet, a.game])
    if a.game == "go":
        game = pyspiel.load_game("go(board_size=9,komi=7.5)")
        runs = [lambda rng: play_go(eng, game, rng, stats)]
    elif a.game == "othello":
        game = pyspiel.load_game("othello")
        runs = [lambda rng: play_othello(eng, game, rng, stats)]
    elif a.game == "gomoku":
        game = pyspiel.load_game("gomoku(size=15,connect=5)")
        runs = [lambda rng: play_gomoku(eng, game, rng, stats)]
    else:
        runs = []
        for size in a.size.split(","):
            rows, cols = map(int, size.lower().split("x"))
            g = pyspiel.load_game(
                f"dots_and_boxes(num_rows={rows},num_cols={cols},utility_margin=true)")
            edges = dots_edges(g, rows, cols)
            runs.append(lambda rng, g=g, r=rows, c=cols, e=edges: play_dots(eng, g, rng, stats, r, c, e))
    # A run stopped with SIGTERM (e.g. by `timeout`) still prints its counts.
    def stop(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    played = 0
    try:
        for i in range(a.games):
            seed = a.seed * 1_000_003 + i
            rng = random.Random(seed)
            run = runs[i % len(runs)]
            try:
                run(rng)
            except Diff as d:
                diffs += 1
                print(f"DIFF {a.game} game {i} seed {seed}: {d}", flush=True)
                # The engine's state is unknown now: start a fresh one.
                eng.close()
                eng = Engine([a.quartet, a.game])
            played = i + 1
            if diffs >= a.max_diffs:
                break
            if played % 500 == 0:
                print(f"  {played} games, {stats['moves']} moves, {diffs} differences, "
                      f"{time.time() - start:.0f} s", flush=True)
    except KeyboardInterrupt:
        print("stopped by a signal; the game under way is not counted", flush=True)
    eng.close()
    superko = f", {stats['superko']} positional-superko refusals (rule variant)" if a.game == "go" else ""
    print(f"xcheck {a.game}: {played} games, {stats['moves']} moves, {diffs} differences, "
          f"{time.time() - start:.1f} s{superko}", flush=True)
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
