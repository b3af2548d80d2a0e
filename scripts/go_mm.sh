#!/bin/sh
# How data/go/mm-v1.txt was made: GNU Go self-play on 9x9 (random 1-4 move openings, levels
# 0-2, two processes with different seeds), then the MM fit of the move model with every
# 10th game held out. Records go to $DIR (default /tmp/go-mm) and stay out of the repository.
#   scripts/go_mm.sh [GAMES_PER_PROCESS] [DIR]
set -e
GAMES=${1:-1100}
DIR=${2:-/tmp/go-mm}
Q=${QUARTET:-target/release/quartet}
mkdir -p "$DIR"
for s in 1 2; do
    nice -n 10 python3 scripts/go_mm_games.py --games "$GAMES" --seed $s --out "$DIR/games-$s.txt" &
done
wait
nice -n 10 "$Q" bench go-mm --games "$DIR"/games-*.txt --iterations 15 --out "$DIR/mm.txt"
echo "weights in $DIR/mm.txt (copy to data/go/mm-v1.txt)"
