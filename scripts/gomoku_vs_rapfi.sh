#!/usr/bin/env bash
# quartet's pbrain brain against Rapfi on 15x15, the 26 three-stone openings, colours swapped.
# Usage: scripts/gomoku_vs_rapfi.sh RAPFI [rounds=20] [seconds-per-move=1] [INFO settings...]
#
# Rapfi: github dhbloo/rapfi, the Gomocup champion, built by you (cmake in Rapfi/, Release,
# no neural network; binary pbrain-rapfi). Freestyle unless RULE says; the openings are
# scripts/openings/gomoku15.txt, refereed by `quartet match gomoku` with both engines on
# `proto=pbrain`.
#        e.g. scripts/gomoku_vs_rapfi.sh $HOME/rapfi/Rapfi/build/pbrain-rapfi 20 1 STRENGTH=0
# env:   QUARTET=path/to/quartet (default: $CARGO_TARGET_DIR/release/quartet or target/release)
#        OUT=dir (default: a new temporary directory)
#        RULE=freestyle|standard|renju (default freestyle; the referee judges by it and sends
#        both brains `INFO rule 0|1|4`)
#        QUARTET_ARGS="..." extra arguments for quartet's brain (e.g. `--log-level info`, whose
#        per-move line gives ms, budget_ms, depth and source)
#        CONCURRENCY=N games at a time (default 1; each engine thinks on one thread, so up
#        to the number of cores)
#        ENGINE_STDERR=file appends both engines' stderr there (default: discarded)
#        OPENINGS=file instead of scripts/openings/gomoku15.txt: scripts/openings/
#        gomoku15-balanced.txt holds 50 openings a long search judges near even (made by
#        scripts/gomoku_balanced_openings.py), where the 26 central ones all favour Black
#
# Rapfi is run through a wrapper written into OUT that (1) sends `INFO THREAD_NUM 1` and one
# `INFO KEY VALUE` per KEY=VALUE argument before the referee's first line, and (2) forwards
# each line 30 ms late: Rapfi prints its move before it clears its "thinking" flag and
# drops a command word that arrives in between (then reads `5,8` as an unknown command and
# the game is lost as a failure). Rapfi's clock starts when it reads the line, so the delay
# costs it no thinking time.
set -euo pipefail
RAPFI=${1:?usage: $0 RAPFI [rounds] [secs] [KEY=VALUE...]}
ROUNDS=${2:-20}
SECS=${3:-1}
shift $(($# < 3 ? $# : 3))
SRC=${QUARTET:-${CARGO_TARGET_DIR:-target}/release/quartet}
RULE=${RULE:-freestyle}
OUT=${OUT:-$(mktemp -d -t gomoku-vs-rapfi.XXXXXX)}
mkdir -p "$OUT"
BIN="$OUT/quartet"
cp "$SRC" "$BIN"
cat > "$OUT/delay.py" <<'PY'
import sys, time
while True:
    line = sys.stdin.readline()
    if not line:
        break
    time.sleep(0.03)
    sys.stdout.write(line)
    sys.stdout.flush()
PY
{
    echo '#!/usr/bin/env bash'
    echo 'exec 3<&0'
    printf 'exec %q < <(printf "INFO THREAD_NUM 1\\n"; for a in "$@"; do printf "INFO %%s\\n" "${a/=/ }"; done; exec python3 -u %q <&3)\n' \
        "$RAPFI" "$OUT/delay.py"
} > "$OUT/rapfi.sh"
chmod +x "$OUT/rapfi.sh"
DIR=$(cd "$(dirname "$0")" && pwd)
echo "binary $BIN (copied from $SRC), Rapfi $RAPFI $*, rule $RULE, results in $OUT" >&2
exec "$BIN" match gomoku --rule "$RULE" --time-per-move "$SECS" \
    ${ENGINE_STDERR:+--engine-stderr "$ENGINE_STDERR"} \
    --engine "name=quartet proto=pbrain cmd=$BIN gomoku --pbrain ${QUARTET_ARGS:-}" \
    --engine "name=rapfi proto=pbrain cmd=$OUT/rapfi.sh $*" \
    --concurrency "${CONCURRENCY:-1}" --rounds "$ROUNDS" --openings "${OPENINGS:-$DIR/openings/gomoku15.txt}" --out "$OUT"
