#!/bin/sh
# Plays quartet against GNU Go as one run and as shards, merges the shards and diffs the tables.
# Usage: scripts/gnugo_shards.sh OUT_DIR [ROUNDS=50] [SHARDS=4]   e.g. /tmp/gnugo-shards 50 4
#
# GNU Go level 10 on 9x9, ROUNDS rounds (each round one opening
# of scripts/openings/go9.txt, played twice with colours swapped, so 2*ROUNDS games), first
# as one run with two games at a time, then as SHARDS shards run one after another (as
# separate hosts would run them), then merged.
#
# For the tables to be equal game by game both engines must be deterministic: quartet plays
# a fixed number of playouts (QUARTET_ARGS, default "--playouts 5000 --threads 1") and GNU Go
# gets a fixed seed. With a clock instead (e.g. QUARTET_ARGS="--threads 1" plus
# MOVE_TIME=1), moves depend on timing and only "merged = sum of the shards" holds.
# Needs target/release/quartet (or $QUARTET) and /usr/games/gnugo (or $GNUGO).
# MOVE_TIME (default 10) is quartet's per-move limit and HANG_TIMEOUT (default 600) GNU Go's
# (it has no clock): both far above what the moves need, so that other work on the machine
# slows the run down without turning a move into a time loss, which would break determinism.
# SHARD_JOBS=K runs K shards at a time (default 1, one after another).
# At level 10 GNU Go takes 0.3-7 s a move: 100 games take 10-20 minutes per pass on two
# idle cores.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 OUT_DIR [ROUNDS] [SHARDS]" >&2
    exit 2
fi
OUT=$1
ROUNDS=${2:-50}
SHARDS=${3:-4}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUARTET=${QUARTET:-$ROOT/target/release/quartet}
GNUGO=${GNUGO:-/usr/games/gnugo}
QUARTET_ARGS=${QUARTET_ARGS:---playouts 5000 --threads 1}
MOVE_TIME=${MOVE_TIME:-10}
HANG_TIMEOUT=${HANG_TIMEOUT:-600}
SHARD_JOBS=${SHARD_JOBS:-1}
[ -x "$QUARTET" ] || { echo "$QUARTET missing: run cargo build --release" >&2; exit 2; }
[ -x "$GNUGO" ] || { echo "$GNUGO missing: apt-get install -y gnugo" >&2; exit 2; }
run() {
    "$QUARTET" match go --boardsize 9 --komi 7.5 \
        --engine "name=quartet st=$MOVE_TIME cmd=$QUARTET go $QUARTET_ARGS" \
        --engine "name=gnugo-10 st=0 cmd=$GNUGO --mode gtp --level 10 --chinese-rules --capture-all-dead --seed 1" \
        --rounds "$ROUNDS" --openings "$ROOT/scripts/openings/go9.txt" \
        --time-margin 0.5 --hang-timeout "$HANG_TIMEOUT" "$@"
}
run --concurrency 2 --out "$OUT/single" > "$OUT.single.txt"
i=1
while [ "$i" -le "$SHARDS" ]; do
    run --concurrency 1 --shard "$i/$SHARDS" --out "$OUT/shard-$i" > "$OUT.shard-$i.txt" &
    if [ $((i % SHARD_JOBS)) -eq 0 ]; then
        wait
    fi
    i=$((i + 1))
done
wait
"$QUARTET" match merge "$OUT"/shard-* > "$OUT.merged.txt"
cat "$OUT.single.txt"
echo
cat "$OUT.merged.txt"
if diff "$OUT.single.txt" "$OUT.merged.txt" > /dev/null; then
    echo "merged table = single-run table"
else
    echo "merged table differs from the single run (engines not deterministic?)"
fi
