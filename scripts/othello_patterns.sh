#!/usr/bin/env bash
# Othello self-play positions labelled by the exact solver, and the pattern-table fit to them.
# Usage: [SEEDS="1 2"] [FIT_ONLY=1] [PRIOR=FILE] [RIDGE=5] [WTHOR_DIR=wthor] scripts/othello_patterns.sh OUTDIR [GAMES_PER_SEED]
#
# The fit (`quartet train othello patterns`) also reads the WTHOR games WTH_1977.wtb and
# WTH_2021.wtb from WTHOR_DIR (default `wthor/` in the current directory; the French
# Othello Federation's files, not in the repository). How each file of data/othello/ was
# made with it: data/othello/README.md.
#
# One self-play run per seed (default seeds 1 and 2), side by side, each under nice: they
# are long CPU jobs; stop them any time (the fit reads whatever the files hold), and
# FIT_ONLY=1 fits every OUTDIR/selfplay-s*.txt without playing more. Each game: 8-14 random plies, then a depth-4 search
# with the linear evaluation plays to 20 empties, where the exact solver takes over; every
# position from the end of the random opening on is labelled with that exact value.
# A stopped run keeps whole games; the fit reads whatever the files hold, and the report
# of every run (games, positions, held-out error) is printed by the fit.
# PRIOR=FILE starts the fit from earlier tables (the ridge then pulls towards them, not
# towards zero: new games refine the old fit instead of replacing it) and reports the
# earlier tables' error on the same held-out positions.
set -euo pipefail
out=${1:?usage: $0 OUTDIR [GAMES_PER_SEED]}
games=${2:-20000}
q=${QUARTET:-target/release/quartet}
wthor=${WTHOR_DIR:-wthor}
for f in WTH_1977.wtb WTH_2021.wtb; do
    [ -f "$wthor/$f" ] || { echo "$0: $wthor/$f not found (set WTHOR_DIR)" >&2; exit 2; }
done
mkdir -p "$out"
if [ -z "${FIT_ONLY:-}" ]; then
    for seed in ${SEEDS:-1 2}; do
        nice -n 19 "$q" train othello selfplay --out "$out/selfplay-s$seed.txt" \
            --games "$games" --seed "$seed" --depth 4 --solve-at 20 &
    done
    wait
fi
positions=()
for f in "$out"/selfplay-s*.txt; do positions+=(--positions "$f"); done
prior=()
if [ -n "${PRIOR:-}" ]; then prior=(--prior "$PRIOR" --compare "$PRIOR"); fi
nice -n 19 "$q" train othello patterns "${positions[@]}" "${prior[@]}" \
    --wthor "$wthor/WTH_1977.wtb" --wthor "$wthor/WTH_2021.wtb" \
    --width 6 --spread 6 --ridge "${RIDGE:-5}" --epochs 100 --holdout 10 \
    --out "$out/patterns.bin"
