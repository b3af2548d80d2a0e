#!/bin/sh
# The Go network in the tree, as an A/B on 9x9: `quartet go --net NET` against the same
# binary without a network, both at the same time per move.
# Usage: scripts/go_net_ab.sh NET [ROUNDS] [OUT_DIR]   e.g. data/go/net-v1.bin 100 /tmp/net-ab
#
# Each round plays one opening of scripts/openings/go9.txt twice, colours swapped, and the
# match stops early when the SPRT decides. Per-colour results are in OUT_DIR/results.txt.
#
# Environment (optional):
#   QUARTET       the binary (default target/release/quartet; build it first)
#   NET_ARGS      more options for the side with the network (e.g. "--net-weight 60")
#   ENGINE_ARGS   options of both sides (default: --threads 1)
#   MOVE_TIME     seconds per move for both, sent with time_settings and enforced (default 1)
#   SPRT          SPRT parameters (default "elo0=0 elo1=30 alpha=0.05 beta=0.05"; empty: none)
#   CONCURRENCY   games at once (default 2)
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 NET [ROUNDS] [OUT_DIR]" >&2
    exit 2
fi
NET=$1
ROUNDS=${2:-100}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${3:-$ROOT/target/go-net-ab}
QUARTET=${QUARTET:-$ROOT/target/release/quartet}
ENGINE_ARGS=${ENGINE_ARGS:---threads 1}
NET_ARGS=${NET_ARGS:-}
MOVE_TIME=${MOVE_TIME:-1}
SPRT=${SPRT-elo0=0 elo1=30 alpha=0.05 beta=0.05}
CONCURRENCY=${CONCURRENCY:-2}
[ -x "$QUARTET" ] || { echo "$QUARTET missing: run cargo build --release" >&2; exit 2; }
[ -f "$NET" ] || { echo "$NET: no such network file" >&2; exit 2; }
set -- --engine "name=net cmd=$QUARTET go $ENGINE_ARGS --net $NET $NET_ARGS" \
       --engine "name=no-net cmd=$QUARTET go $ENGINE_ARGS"
[ -n "$SPRT" ] && set -- "$@" --sprt $SPRT
exec "$QUARTET" match go --boardsize 9 --komi 7.5 "$@" \
    --rounds "$ROUNDS" --openings "$ROOT/scripts/openings/go9.txt" \
    --time-per-move "$MOVE_TIME" --time-margin 0.5 --hang-timeout 60 --concurrency "$CONCURRENCY" \
    --out "$OUT" --json "$OUT/results.json"
