#!/bin/sh
# quartet (this checkout) against an earlier build of quartet on 9x9: the regression match.
# Usage: scripts/self_vs_rev.sh REV [ROUNDS] [OUT_DIR]   e.g. HEAD~5 200 /tmp/vs-head5
#
# Builds git revision REV into a temporary directory (git archive + cargo build --release;
# the working tree is not touched), then plays ROUNDS rounds on 9x9 (each round one opening
# of scripts/openings/go9.txt, played twice with colours swapped), stopping early when the
# SPRT decides.
#
# Environment (optional):
#   QUARTET       the new binary (default target/release/quartet; build it first)
#   ENGINE_ARGS   arguments of `quartet go` for both sides (default: --threads 1)
#   MOVE_TIME     seconds per move for both, sent with time_settings and enforced (default 1)
#   OLD_DIR       where the old revision is built (default $TMPDIR/quartet-rev-SHA; reused)
#   SPRT          SPRT parameters (default "elo0=0 elo1=10 alpha=0.05 beta=0.05"; empty: none)
#   CONCURRENCY   games at once (default 2)
# The revision must have `quartet go` (commit 31b4590 or later). Results: OUT_DIR/results.txt
# (the table), results.tsv (per game, for `quartet match merge`), records/*.sgf.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 REV [ROUNDS] [OUT_DIR]" >&2
    exit 2
fi
REV=$1
ROUNDS=${2:-100}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHA=$(git -C "$ROOT" rev-parse --short "$REV")
OUT=${3:-$ROOT/target/match-vs-$SHA}
QUARTET=${QUARTET:-$ROOT/target/release/quartet}
ENGINE_ARGS=${ENGINE_ARGS:---threads 1}
MOVE_TIME=${MOVE_TIME:-1}
SPRT=${SPRT-elo0=0 elo1=10 alpha=0.05 beta=0.05}
CONCURRENCY=${CONCURRENCY:-2}
[ -x "$QUARTET" ] || { echo "$QUARTET missing: run cargo build --release" >&2; exit 2; }
OLD_DIR=${OLD_DIR:-${TMPDIR:-/tmp}/quartet-rev-$SHA}
if [ ! -x "$OLD_DIR/target/release/quartet" ]; then
    mkdir -p "$OLD_DIR/src"
    git -C "$ROOT" archive "$SHA" | tar -x -C "$OLD_DIR/src"
    CARGO_TARGET_DIR="$OLD_DIR/target" nice cargo build --release --quiet \
        --manifest-path "$OLD_DIR/src/Cargo.toml"
fi
OLD=$OLD_DIR/target/release/quartet
set -- --engine "name=new cmd=$QUARTET go $ENGINE_ARGS" \
       --engine "name=old-$SHA cmd=$OLD go $ENGINE_ARGS"
[ -n "$SPRT" ] && set -- "$@" --sprt $SPRT
exec "$QUARTET" match go --boardsize 9 --komi 7.5 "$@" \
    --rounds "$ROUNDS" --openings "$ROOT/scripts/openings/go9.txt" \
    --time-per-move "$MOVE_TIME" --time-margin 0.5 --hang-timeout 60 --concurrency "$CONCURRENCY" \
    --out "$OUT" --json "$OUT/results.json"
