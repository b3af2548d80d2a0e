#!/bin/sh
# quartet (1 s a move) against GNU Go 3.8 level 10 on 9x9, komi 7.5.
# Usage: scripts/gnugo_match.sh SGF_DIR [GAMES=40]   e.g. scripts/gnugo_match.sh /tmp/gnugo-sgf 40
#
# One thread, Chinese rules. Colours alternate game by game (quartet is Black in games 1,
# 3, 5...); two games run at a time. Progress (one line per game) goes to stderr, the
# results table (wins per engine and colour, score with a 95% Wilson interval, losses on
# time/illegal/malformed/failure) to stdout.
#
# QUARTET_ARGS (default "--threads 1") are quartet's options, e.g. "--net data/go/net-v1.bin
# --policy-only" for the network alone.
# Needs: cargo build --release (uses target/release/quartet, or $QUARTET if set) and
#        apt-get install -y gnugo (binary /usr/games/gnugo, or $GNUGO if set).
# GNU Go gets no time limit (its level sets its strength; it takes 0.3-7 s a move), only the
# referee's hang guard (600 s: with other work on the machine GNU Go once took over 60 s for
# a move, which must not count as a time loss for it); quartet gets `time_settings 0 1 1` and loses a move later than
# 1 s + 0.5 s margin. SGF records land in SGF_DIR (not committed).
# --capture-all-dead: GNU Go otherwise passes with dead enemy stones still on the board. When
# the two final_score answers then disagree, the referee's Tromp-Taylor count treats those
# stones as alive and can hand GNU Go a loss it did not deserve (seen in a test: random
# moves "beat" GNU Go level 1 that way). Under area rules capturing them costs GNU Go nothing,
# so the option only removes that scoring ambiguity; it does not change GNU Go's strength.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 SGF_DIR [GAMES]" >&2
    exit 2
fi
SGF_DIR=$1
GAMES=${2:-40}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUARTET=${QUARTET:-$ROOT/target/release/quartet}
GNUGO=${GNUGO:-/usr/games/gnugo}
QUARTET_ARGS=${QUARTET_ARGS:---threads 1}
[ -x "$QUARTET" ] || { echo "$QUARTET missing: run cargo build --release" >&2; exit 2; }
[ -x "$GNUGO" ] || { echo "$GNUGO missing: apt-get install -y gnugo" >&2; exit 2; }
exec "$QUARTET" match go \
    --black "$QUARTET go $QUARTET_ARGS" --black-name quartet \
    --white "$GNUGO --mode gtp --level 10 --chinese-rules --capture-all-dead" --white-name gnugo-10 \
    --games "$GAMES" --boardsize 9 --komi 7.5 \
    --time-per-move-1 1 --time-margin 0.5 --hang-timeout 600 \
    --concurrency 2 --sgf-dir "$SGF_DIR"
