#!/bin/sh
# quartet's Othello engine (1 s a move) against Zebra at a fixed depth, refereed by
# `quartet match othello` on the balanced openings (scripts/openings/othello-balanced.txt,
# round r plays line r), each played with both colours.
#
# usage: scripts/othello_vs_zebra.sh ZEBRA_DIR [ROUNDS=10] [OUT_DIR]
# ZEBRA_DIR holds Zebra's console binary (github.com/lk16/zebra, with the one-move print that
# scripts/zebra_gtp.py describes) and its coeffs2.bin.
# env: QUARTET (default target/release/quartet), QUARTET_ARGS (default none),
#      ZEBRA_DEPTH="20 22 24" (midgame depth, exact and WLD empties; 20/22/24 spends about
#      1 s a move on one core, as quartet does), CONCURRENCY (1),
#      OPENINGS (an openings file; "random" plays random 6-ply openings seeded by SEED, 1).
# Zebra's time per move goes to OUT_DIR/engines.log, one line per move.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 ZEBRA_DIR [ROUNDS] [OUT_DIR]" >&2
    exit 2
fi
ZEBRA_DIR=$1
ROUNDS=${2:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${3:-$ROOT/target/match-vs-zebra}
QUARTET=${QUARTET:-$ROOT/target/release/quartet}
ZEBRA_DEPTH=${ZEBRA_DEPTH:-20 22 24}
[ -x "$QUARTET" ] || { echo "$QUARTET missing: run cargo build --release" >&2; exit 2; }
[ -x "$ZEBRA_DIR/zebra" ] || { echo "$ZEBRA_DIR/zebra missing (see scripts/zebra_gtp.py)" >&2; exit 2; }
case ${OPENINGS:-$ROOT/scripts/openings/othello-balanced.txt} in
    random) OPENING_ARGS="--random-openings 6 --seed ${SEED:-1}" ;;
    *) OPENING_ARGS="--openings ${OPENINGS:-$ROOT/scripts/openings/othello-balanced.txt}" ;;
esac
mkdir -p "$OUT"
# shellcheck disable=SC2086 # OPENING_ARGS is a word list on purpose
exec "$QUARTET" match othello \
    --engine "name=quartet st=1 cmd=$QUARTET othello ${QUARTET_ARGS:-}" \
    --engine "name=zebra cmd=python3 $ROOT/scripts/zebra_gtp.py $ZEBRA_DIR $ZEBRA_DEPTH" \
    --rounds "$ROUNDS" $OPENING_ARGS \
    --time-margin 0.5 --hang-timeout 300 --concurrency "${CONCURRENCY:-1}" \
    --engine-stderr "$OUT/engines.log" --out "$OUT" --json "$OUT/results.json"
