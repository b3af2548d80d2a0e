#!/usr/bin/env bash
# `quartet dots` against the greedy reference player on 5x5 boxes.
# Usage: scripts/dots_vs_greedy.sh [rounds=10] [seconds-per-move=2] [seed=1] [out-dir]
#
# The greedy player takes any box, else a random edge that gives nothing away, else a
# random edge; 2 s per move, through the tournament tool. Target: at least 19 wins in 20.
#   A round is one opening played twice with colours swapped, so 10 rounds = 20 games.
#   Each round starts from 2 random legal edges (seeded), so the games differ although
#   the greedy engine's own seed is fixed.
# env: QUARTET=path/to/quartet (default: $CARGO_TARGET_DIR or target, release build)
#
# The binary is copied to a private temporary path first, so a rebuild during the match
# cannot swap the engine under it.
set -euo pipefail
ROUNDS=${1:-10}
SECS=${2:-2}
SEED=${3:-1}
OUT=${4:-}
SRC=${QUARTET:-${CARGO_TARGET_DIR:-target}/release/quartet}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$SRC" "$dir/quartet"
BIN="$dir/quartet"
args=(match dots --boardsize 5x5
    --engine "name=quartet st=$SECS cmd=$BIN dots"
    --engine "name=greedy cmd=$BIN dots --player greedy --seed $SEED"
    --rounds "$ROUNDS" --random-openings 2 --seed "$SEED" --concurrency 1)
if [[ -n $OUT ]]; then args+=(--out "$OUT"); fi
echo "quartet dots (st=$SECS) vs greedy, 5x5, $ROUNDS rounds, seed $SEED, binary $(sha256sum "$SRC" | cut -c1-12)" >&2
"$BIN" "${args[@]}"
