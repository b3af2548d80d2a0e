#!/bin/sh
# How data/go/mm-v1.txt and mm-v2.txt were made: GNU Go self-play on 9x9 (random 1-4 move
# openings, levels 0-2, one process per seed), then the MM fit of the move model with every
# 10th game held out. Records go to $DIR (default /tmp/go-mm) and stay out of the
# repository; new games need new seeds (the openings and GNU Go's choices follow the seed).
#   [SEEDS="1 2"] [DIAMOND_MIN=3] [PACHI=/path/to/pachi] scripts/go_mm.sh [GAMES_PER_PROCESS] [DIR]
# With PACHI set, Pachi (built without its DCNN) plays the games instead of GNU Go, at
# PACHI_ARGS (default `--nojoseki -t =2500 threads=1`, about 0.3 s a move) plus `-s SEED`.
# Pachi needs its pattern files: set DATA_DIR to its source folder (or run from there).
# mm-v1: seeds 1 2, 839 games, DIAMOND_MIN=0 (no diamonds). mm-v2: seeds 1 2 (730 and 737
# games) then 3 4 (750 and 763 games), 2980 games, DIAMOND_MIN=3. mm-v3 (Pachi 12.90, no DCNN):
# PACHI=... SEEDS="11 12 13", stopped after 575, 69 and 381 games (1025), DIAMOND_MIN=5.
set -e
GAMES=${1:-1100}
DIR=${2:-/tmp/go-mm}
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
