#!/bin/sh
# quartet against Pachi at fixed playouts on 9x9, komi 7.5: a quick stand-in for the timed match.
# Usage: scripts/pachi_proxy.sh PACHI_BINARY [ROUNDS] [OUT_DIR]   e.g. $HOME/pachi/pachi 50 /tmp/proxy-base
#
# About 10 s a game on one core at the defaults, against about a minute at 1 s a move in
# scripts/pachi_match.sh, and independent of other work on the machine: for screening
# changes.
#
# Each round plays a random two-ply opening (seeded by SEED) twice, colours swapped, so two
# runs with the same SEED meet the same openings. Pachi runs from its own folder, where it
# finds its pattern files. Build it as scripts/pachi_match.sh says.
#
# Environment (optional): QUARTET (default target/release/quartet), QUARTET_ARGS (extra
# `quartet go` options, default none), Q_PLAYOUTS (default 5000), P_PLAYOUTS (Pachi's
# `-t =N`, default 2500), SEED (default 501), CONCURRENCY (default 1).
#
# Calibration (seed 501, 100 games each): quartet 5000 against Pachi 2500 scored 49-51,
# quartet 3500 against Pachi 2500 34-66; how the playout ratio of the timed match maps onto
# these settings: docs/experiments/go.md.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 PACHI_BINARY [ROUNDS] [OUT_DIR]" >&2
    exit 2
fi
PACHI=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROUNDS=${2:-50}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${3:-$ROOT/target/proxy-vs-pachi}
QUARTET=${QUARTET:-$ROOT/target/release/quartet}
QUARTET_ARGS=${QUARTET_ARGS:-}
Q_PLAYOUTS=${Q_PLAYOUTS:-5000}
P_PLAYOUTS=${P_PLAYOUTS:-2500}
SEED=${SEED:-501}
CONCURRENCY=${CONCURRENCY:-1}
[ -x "$QUARTET" ] || { echo "$QUARTET missing: run cargo build --release" >&2; exit 2; }
[ -x "$PACHI" ] || { echo "$PACHI is not an executable Pachi engine (see scripts/pachi_match.sh)" >&2; exit 2; }
QUARTET=$(cd "$(dirname "$QUARTET")" && pwd)/$(basename "$QUARTET")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$(dirname "$PACHI")"
exec "$QUARTET" match go --boardsize 9 --komi 7.5 \
    --engine "name=quartet cmd=$QUARTET go --threads 1 --playouts $Q_PLAYOUTS $QUARTET_ARGS" \
    --engine "name=pachi cmd=$PACHI --nojoseki -t =$P_PLAYOUTS threads=1" \
    --rounds "$ROUNDS" --random-openings 2 --seed "$SEED" \
    --hang-timeout 120 --concurrency "$CONCURRENCY" \
    --out "$OUT" --json "$OUT/results.json"
