#!/bin/sh
# quartet against Pachi (a strong open-source MCTS Go engine) on 9x9, komi 7.5, 1 s a move.
# Usage: scripts/pachi_match.sh PACHI_BINARY [ROUNDS] [OUT_DIR]   e.g. $HOME/pachi/pachi 50 /tmp/vs-pachi
#
# Pachi is NOT installed by `apt-get install pachi`: Debian's `pachi` package is an
# unrelated platform game. Build the engine from https://github.com/pasky/pachi (make;
# `make DCNN=0` builds it without the Caffe dependency) or use a release binary, and pass
# its path. The default PACHI_ARGS are: no joseki, one thread, `-t 3`,
# which Pachi 12.90 spends as 1.0 s a move on 9x9 (it keeps about 2 s back for network lag,
# as its log shows); `-t =5000` gives fixed playouts instead (Pachi
# reads `-t SECS` for time per move, `-t =N` for N playouts, and engine options such as
# `threads=N` as one comma-separated argument).
#
# Pachi needs its pattern files: set DATA_DIR to its source folder (or run from there), or it
# exits at once and the match reports that the engine exited.
#
# Environment (optional): QUARTET (default target/release/quartet), QUARTET_ARGS (default
# "--threads 1"; quartet gets 1 s a move through time_settings, enforced with a 0.5 s
# margin; Pachi gets no clock, only the 120 s hang guard), PACHI_ARGS (default "--nojoseki -t 3 threads=1"), CONCURRENCY (2).
# Each round plays one opening of scripts/openings/go9.txt twice with colours swapped.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 PACHI_BINARY [ROUNDS] [OUT_DIR]" >&2
    exit 2
fi
PACHI=$1
ROUNDS=${2:-50}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${3:-$ROOT/target/match-vs-pachi}
QUARTET=${QUARTET:-$ROOT/target/release/quartet}
QUARTET_ARGS=${QUARTET_ARGS:---threads 1}
PACHI_ARGS=${PACHI_ARGS:---nojoseki -t 3 threads=1}
CONCURRENCY=${CONCURRENCY:-2}
[ -x "$QUARTET" ] || { echo "$QUARTET missing: run cargo build --release" >&2; exit 2; }
[ -x "$PACHI" ] || { echo "$PACHI is not an executable Pachi engine (see the comment in $0)" >&2; exit 2; }
exec "$QUARTET" match go --boardsize 9 --komi 7.5 \
    --engine "name=quartet st=1 cmd=$QUARTET go $QUARTET_ARGS" \
    --engine "name=pachi cmd=$PACHI $PACHI_ARGS" \
    --rounds "$ROUNDS" --openings "$ROOT/scripts/openings/go9.txt" \
    --time-margin 0.5 --hang-timeout 120 --concurrency "$CONCURRENCY" \
    --out "$OUT" --json "$OUT/results.json"
