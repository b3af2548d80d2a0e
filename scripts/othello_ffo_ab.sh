#!/bin/sh
# A/B timing of the Othello endgame solver on FFO positions, the binaries run in alternation.
# Usage: scripts/othello_ffo_ab.sh ROUNDS "BENCH ARGS (e.g. --skip 8 --count 2)" BIN1 BIN2 ...
#
# Each line gives the binary, the time of day, the totals, the ordering nodes and each
# position's CPU seconds: on a shared machine compare the CPU seconds of runs taken close
# together.
rounds=$1; args=$2; shift 2
obf=${OBF:-$(dirname "$0")/../data/othello/ffo-40-59.obf}
r=0
while [ "$r" -lt "$rounds" ]; do
  for bin in "$@"; do
    out=$(nice -n 10 "$bin" bench othello ffo "$obf" $args)
    echo "$(basename "$bin") $(date +%T) |" \
      "$(echo "$out" | grep '^total' | sed 's/total: //')" \
      "| $(echo "$out" | grep '^ordering' | sed 's/.*all nodes/all/')" \
      "| $(echo "$out" | awk '/^ *[0-9]+ /{printf "%s:%s ", $1, $8}')"
  done
  r=$((r + 1))
done
