#!/usr/bin/env bash
# The opening book's A/B: a self-learning run, then the learnt book against no book.
# Usage: scripts/othello_book_ab.sh [learn games] [learn base time] [match rounds] [s/move]
#
# The engine with the learnt book plays the same binary without a book, each named opening
# of scripts/openings/othello.txt played twice with the colours swapped.
#   defaults: 40 games, 0.1 s, 9 rounds (each opening once, both colours), 0.3 s
# Env: QUARTET (binary, default target/release/quartet), SEED_BOOK (a book the learning
# starts from, e.g. one made by `quartet train othello book --wthor ...`; none by
# default), DIR (work directory, default a new temporary one; reuse it to resume learning).
set -euo pipefail

GAMES=${1:-40}
BASE=${2:-0.1}
ROUNDS=${3:-9}
MOVE_TIME=${4:-0.3}
QUARTET=${QUARTET:-target/release/quartet}
DIR=${DIR:-$(mktemp -d)}

seed=()
if [ -n "${SEED_BOOK:-}" ]; then seed=(--book "$SEED_BOOK"); fi
# Learning is not timed against anything: it runs niced.
nice -n 19 "$QUARTET" othello --hash-mb 16 "${seed[@]}" learn --games "$GAMES" \
    --base-time "$BASE" --dir "$DIR/learn"
"$QUARTET" match othello \
    --engine "name=book cmd=$QUARTET othello --hash-mb 16 --book $DIR/learn/book.book" \
    --engine "name=nobook cmd=$QUARTET othello --hash-mb 16 --no-book" \
    --openings scripts/openings/othello.txt --rounds "$ROUNDS" \
    --time-per-move "$MOVE_TIME" --records "$DIR/records"
echo "learning and records in $DIR"
