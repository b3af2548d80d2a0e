#!/usr/bin/env python3
"""A GTP front end for Zebra (the console engine of WZebra), so that `quartet match othello`
can play it at a fixed depth.

usage: zebra_gtp.py ZEBRA_DIR [DEPTH EXACT WLD]      (default depth 20, exact 22, WLD 24)

ZEBRA_DIR holds a `zebra` binary built from github.com/lk16/zebra (its Makefile's console
target, `make zebra OPTS="-O2 -fcommon -fwrapv -fno-strict-aliasing
-fno-delete-null-pointer-checks" LDFLAGS="-lm -lz"`: with plain -O2 the old C code crashes
in its endgame solver) and its `coeffs2.bin`. The binary
needs one addition in your scratch copy: right after `compute_move` in zebra.c's game loop,

    if ( getenv( "ZEBRA_ONE_MOVE" ) != NULL ) {
      printf( "zebra-move %c %c%c\\n", side_to_move == BLACKSQ ? 'b' : 'w',
              TO_SQUARE( curr_move ) );
      fflush( stdout ); exit( 0 );
    }

Each `genmove` runs Zebra once on the game so far (`-seq`, no book, no randomness, a fresh
hash table) and answers the move it prints. The dialect is the one quartet's referee speaks:
passes are automatic, so `play` never carries one and the move list alone fixes the position.
"""
import os
import subprocess
import sys
import time

COMMANDS = [
    "protocol_version", "name", "version", "known_command", "list_commands", "quit",
    "boardsize", "clear_board", "komi", "play", "genmove", "time_settings", "time_left",
]


def main():
    if len(sys.argv) not in (2, 5):
        sys.exit(__doc__)
    zebra_dir = os.path.abspath(sys.argv[1])
    depth = sys.argv[2:5] or ["20", "22", "24"]
    moves = []
    env = dict(os.environ, ZEBRA_ONE_MOVE="1")
    for raw in sys.stdin:
        words = raw.split("#")[0].split()
        if not words:
            continue
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
        if not words:
            continue
        cmd, args = words[0].lower(), words[1:]
        ok, text = True, ""
        if cmd == "protocol_version":
            text = "2"
        elif cmd == "name":
            text = "Zebra"
        elif cmd == "version":
            text = "depth " + "/".join(depth)
        elif cmd == "known_command":
            text = "true" if args and args[0] in COMMANDS else "false"
        elif cmd == "list_commands":
            text = "\n".join(COMMANDS)
        elif cmd == "boardsize":
            ok = args == ["8"]
            text = "" if ok else "unacceptable size"
        elif cmd == "clear_board":
            moves = []
        elif cmd in ("komi", "time_settings", "time_left"):
            pass
        elif cmd == "play" and len(args) == 2:
            if args[1].lower() != "pass":
                moves.append(args[1].lower())
        elif cmd == "genmove" and len(args) == 1:
            start = time.monotonic()
            run = subprocess.run(
                ["./zebra", "-e", "0", "-b", "0", "-r", "0", "-l", *depth, *depth]
                + (["-seq", "".join(moves)] if moves else []),
                cwd=zebra_dir, env=env, capture_output=True, text=True, timeout=600)
            print(f"zebra {len(moves) + 1}: {time.monotonic() - start:.3f} s", file=sys.stderr, flush=True)
            found = [l.split() for l in run.stdout.splitlines() if l.startswith("zebra-move")]
            if found and found[0][1] == args[0].lower()[0]:
                moves.append(found[0][2])
                text = found[0][2]
            elif found:
                text = "pass"
            else:
                ok, text = False, "zebra gave no move: " + (run.stderr or run.stdout)[-200:]
        elif cmd == "quit":
            print(f"={ident}\n", flush=True)
            return
        else:
            ok, text = False, "unknown command"
        text = text.replace("\n\n", "\n").strip()
        print(f"{'=' if ok else '?'}{ident} {text}".rstrip() + "\n", flush=True)


if __name__ == "__main__":
    main()
