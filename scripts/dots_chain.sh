#!/bin/sh
# Proves the value of an empty Dots-and-Boxes board by split/solve/merge on one machine.
# Usage: scripts/dots_chain.sh BOARD DEPTH EXPECT DIR [ROUNDS]   e.g. 3x5 2 -1 /tmp/chain-3x5
#
# Split (a proof tree of --expect), solve every task in one batch, merge; while the merge is
# undecided (a chosen move was refuted), split again on the same folder (it replaces the
# refuted moves and writes only new tasks) and go on. Stops at a value, below/above, or
# ROUNDS. docs/dots-split.md describes the commands.
set -e
board=${1:?usage: $0 BOARD DEPTH EXPECT DIR [ROUNDS]}
depth=${2:?}; expect=${3:?}; dir=${4:?}; rounds=${5:-20}
q=${QUARTET:-target/release/quartet}
round=1
while [ "$round" -le "$rounds" ]; do
    "$q" bench dots --split "$board" --depth "$depth" --expect "$expect" --proof --out "$dir"
    "$q" bench dots --solve-task "$dir"/*.task | grep -v 'done before' || true
    if "$q" bench dots --merge "$dir"; then
        echo "round $round: decided"
        exit 0
    fi
    echo "round $round: undecided, extending"
    round=$((round + 1))
done
echo "no decision after $rounds rounds" >&2
exit 1
