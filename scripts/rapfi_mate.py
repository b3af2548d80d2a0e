#!/usr/bin/env python3
"""Rapfi's verdict on VCF/VCT position lines (the format of tests/data/gomoku_vcf_vct.txt:
name, kind, moves in SGF letters from Black, quartet's first move).

usage: scripts/rapfi_mate.py RAPFI FILE [ms-per-query=1000] > checked.txt

For each line Rapfi (github dhbloo/rapfi, classical build, one thread, freestyle) is asked
twice through the pbrain protocol: the position with the attacker to move (`root`: Rapfi's
`Eval +Mk` means it found a forced win in k plies) and the position after quartet's first
move with the defender to move (`after`: `-Mk` means the defender is mated, so quartet's
first move wins). The line is printed again with `rapfi=EVAL after=EVAL` appended.
"""
import subprocess
import sys
import time


def query(rapfi, moves, ms):
    """Rapfi's last `Eval` for the side to move after `moves` ((x, y) from the top-left)."""
    p = subprocess.Popen([rapfi], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()
        # Rapfi drops a command word that arrives while it is finishing the last one.
        time.sleep(0.02)

    send("START 15")
    assert p.stdout.readline().strip() == "OK"
    for info in ("THREAD_NUM 1", "rule 0", f"timeout_turn {ms}", "timeout_match 0"):
        send("INFO " + info)
    send("BOARD")
    tomove = len(moves) % 2
    for i, (x, y) in enumerate(moves):
        send(f"{x},{y},{1 if i % 2 == tomove else 2}")
    send("DONE")
    ev = "?"
    while True:
        line = p.stdout.readline()
        if not line:
            break
        line = line.strip()
        if line.startswith("MESSAGE"):
            for part in line.split("|"):
                part = part.strip()
                if part.startswith("Eval "):
                    ev = part.split()[1]
            continue
        if "," in line:
            break
    send("END")
    p.wait(timeout=5)
    return ev


def xy(m):
    return (ord(m[0]) - 97, ord(m[1]) - 97)


def main():
    rapfi, path = sys.argv[1], sys.argv[2]
    ms = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            print(line, end="")
            continue
        f = line.split()
        moves = [xy(m) for m in f[2].split(",")]
        root = query(rapfi, moves, ms)
        after = query(rapfi, moves + [xy(f[3])], ms)
        print(f"{' '.join(f[:4])} rapfi={root} after={after}", flush=True)


if __name__ == "__main__":
    main()
