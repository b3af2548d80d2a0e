#!/bin/sh
# A/B timing of the Othello endgame solver on FFO positions, binaries run in alternation
# (the machine is shared: compare CPU seconds of runs taken close together).
# usage: othello_ffo_ab.sh <rounds> "<bench args, e.g. --skip 8 --count 2>" bin1 bin2 ...
rounds=$1; args=$2; shift 2
obf=${OBF:-$(dirname "$0")/../data/othello/ffo-40-59.obf}
r=0
while [ "$r" -lt "$rounds" ]; do
  for bin in "$@"; do
    out=$(nice -n 10 "$bin" bench othello ffo "$obf" $args)
    echo "$(basename "$bin") $(uptime | sed 's/.*load average: //' | cut -d, -f1) |" \
      "$(echo "$out" | grep '^total' | sed 's/total: //')" \
      "| $(echo "$out" | grep '^ordering' | sed 's/.*all nodes/all/')" \
      "| $(echo "$out" | awk '/^ *[0-9]+ /{printf "%s:%s ", $1, $8}')"
  done
  r=$((r + 1))
done
