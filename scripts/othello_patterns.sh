#!/usr/bin/env bash
# How data/othello/patterns.bin is made: self-play positions labelled by the exact solver,
# plus the WTHOR games, fitted by `quartet bench othello train-patterns`.
#
#   scripts/othello_patterns.sh OUTDIR [GAMES_PER_SEED]
#
# Two self-play runs (seeds 1 and 2; run them one after the other or side by side, each
# under nice: they are long CPU jobs). Each game: 8-14 random plies, then a depth-4 search
# with the linear evaluation plays to 20 empties, where the exact solver takes over; every
# position from the end of the random opening on is labelled with that exact value.
# A stopped run keeps whole games; the fit reads whatever the files hold, and the report
# of every run (games, positions, held-out error) is printed by the fit.
set -euo pipefail
out=${1:?usage: $0 OUTDIR [GAMES_PER_SEED]}
games=${2:-20000}
q=${QUARTET:-target/release/quartet}
wthor=/work/shared/othello
mkdir -p "$out"
for seed in 1 2; do
    nice -n 19 "$q" bench othello selfplay --out "$out/selfplay-s$seed.txt" \
        --games "$games" --seed "$seed" --depth 4 --solve-at 20 &
done
wait
nice -n 19 "$q" bench othello train-patterns \
    --positions "$out/selfplay-s1.txt" --positions "$out/selfplay-s2.txt" \
    --wthor "$wthor/WTH_1977.wtb" --wthor "$wthor/WTH_2021.wtb" \
    --width 6 --spread 6 --ridge 5 --epochs 100 --holdout 10 \
    --out "$out/patterns.bin"
