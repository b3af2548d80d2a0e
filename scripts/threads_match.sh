#!/bin/sh
# quartet on N threads against quartet on one thread, same binary, same time per move: what
# the extra cores give in play. Each opening is played with both colours; the match stops
# early when the SPRT decides.
# Usage: scripts/threads_match.sh GAME [THREADS=2] [ROUNDS=100] [OUT_DIR]
#   GAME: go (9x9, komi 7), othello, gomoku (15x15 freestyle) or dots (5x5 boxes)
#
# Environment (optional):
#   QUARTET      the binary (default target/release/quartet; build it first)
#   MOVE_TIME    seconds per move for both (default 0.5), sent with time_settings and enforced
#   SPRT         SPRT parameters (default "elo0=0 elo1=50 alpha=0.05 beta=0.05"; empty: none)
#   OPENINGS     an openings file instead of the game's set (Othello's is the balanced
#                scripts/openings/othello-balanced.txt); for Othello, "random" plays random
#                6-ply openings seeded by SEED (default 1)
# Games are played one at a time: the N-thread engine needs N free cores, so run it on a
# machine with at least N cores and nothing else busy. Results: OUT_DIR/results.txt.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 go|othello|gomoku|dots [THREADS] [ROUNDS] [OUT_DIR]" >&2
    exit 2
fi
GAME=$1
THREADS=${2:-2}
ROUNDS=${3:-100}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${4:-$ROOT/target/threads-$GAME-$THREADS}
QUARTET=${QUARTET:-$ROOT/target/release/quartet}
MOVE_TIME=${MOVE_TIME:-0.5}
SPRT=${SPRT-elo0=0 elo1=50 alpha=0.05 beta=0.05}
[ -x "$QUARTET" ] || { echo "$QUARTET missing: run cargo build --release" >&2; exit 2; }
case $GAME in
    go) SET=go9.txt; SETUP="--boardsize 9 --komi 7" ;;
    othello) SET=othello-balanced.txt; SETUP="" ;;
    gomoku) SET=gomoku15-balanced.txt; SETUP="" ;;
    dots) SET=dots5x5.txt; SETUP="--boardsize 5x5" ;;
    *) echo "unknown game $GAME (go, othello, gomoku or dots)" >&2; exit 2 ;;
esac
case ${OPENINGS:-$ROOT/scripts/openings/$SET} in
    random) OPENING_ARGS="--random-openings 6 --seed ${SEED:-1}" ;;
    *) OPENING_ARGS="--openings ${OPENINGS:-$ROOT/scripts/openings/$SET}" ;;
esac
mkdir -p "$OUT"
# shellcheck disable=SC2086 # OPENING_ARGS, SETUP and SPRT are word lists on purpose
"$QUARTET" match "$GAME" $SETUP $OPENING_ARGS \
    --engine "name=threads-$THREADS cmd=$QUARTET $GAME --threads $THREADS" \
    --engine "name=threads-1 cmd=$QUARTET $GAME --threads 1" \
    --time-per-move "$MOVE_TIME" --rounds "$ROUNDS" --concurrency 1 \
    ${SPRT:+--sprt $SPRT} --out "$OUT"
cat "$OUT/results.txt"
