#!/bin/sh
# Self-play games for the Go move model, then its fit (how data/go/mm-v*.txt were made).
# Usage: [SEEDS="1 2"] [DIAMOND_MIN=3] [PACHI=/path/to/pachi] scripts/go_mm.sh [GAMES_PER_PROCESS] [DIR]
#
# GNU Go self-play on 9x9 (random 1-4 move openings, levels 0-2, one process per seed),
# then the MM fit of the move model with every 10th game held out. Records go to DIR
# (default target/go-mm) and stay out of the repository; new games need new seeds (the
# openings and GNU Go's choices follow the seed).
# With PACHI set, Pachi (built without its DCNN) plays the games instead of GNU Go, at
# PACHI_ARGS (default `--nojoseki -t =2500 threads=1`, about 0.3 s a move) plus `-s SEED`.
# Pachi needs its pattern files: set DATA_DIR to its source folder (or run from there).
# The settings of each file in data/go/: data/go/README.md.
set -e
GAMES=${1:-1100}
DIR=${2:-target/go-mm}
SEEDS=${SEEDS:-1 2}
DIAMOND_MIN=${DIAMOND_MIN:-3}
PACHI_ARGS=${PACHI_ARGS:---nojoseki -t =2500 threads=1}
Q=${QUARTET:-target/release/quartet}
PACHI=${PACHI:-}
mkdir -p "$DIR"
for s in $SEEDS; do
    nice -n 10 python3 scripts/go_mm_games.py --games "$GAMES" --seed $s --out "$DIR/games-$s.txt" \
        ${PACHI:+--engine "$PACHI $PACHI_ARGS -s $s"} &
done
wait
nice -n 10 "$Q" train go mm --games "$DIR"/games-*.txt --iterations 15 --diamond-min "$DIAMOND_MIN" --out "$DIR/mm.txt"
echo "weights in $DIR/mm.txt"
