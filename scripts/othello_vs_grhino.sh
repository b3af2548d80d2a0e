#!/usr/bin/env bash
# Plays quartet's Othello engine against GRhino (gtp-rhino) over GTP.
# Usage: scripts/othello_vs_grhino.sh [games] [quartet seconds/move] [grhino level] [seed]
#   defaults: 10 games, 0.3 s, level 3, seed 1
# Env: QUARTET (binary, default target/release/quartet), GRHINO (/usr/games/gtp-rhino).
#
# Openings: 4 random plies (from the arbiter's legal moves, seeded), each opening played
# twice with the colours swapped. A third `quartet othello` instance is the arbiter: it
# only keeps the rules (play / side to move / result), it never searches. Both engines
# pass automatically when they have no move (GRhino rejects `play X pass`), so passes are
# never sent. A move the arbiter refuses loses the game for the side that made it.
set -euo pipefail

GAMES=${1:-10}
MOVE_TIME=${2:-0.3}
LEVEL=${3:-3}
SEED=${4:-1}
QUARTET=${QUARTET:-target/release/quartet}
GRHINO=${GRHINO:-/usr/games/gtp-rhino}

dir=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$dir"
}
trap cleanup EXIT

# start NAME CMD...: runs an engine with its stdin/stdout on fifos, fds in NAME_IN/NAME_OUT.
start() {
    local name=$1
    shift
    mkfifo "$dir/$name.in" "$dir/$name.out"
    "$@" <"$dir/$name.in" >"$dir/$name.out" 2>>"$dir/$name.err" &
    pids+=($!)
    exec {fd_in}>"$dir/$name.in"
    exec {fd_out}<"$dir/$name.out"
    printf -v "${name}_IN" '%s' "$fd_in"
    printf -v "${name}_OUT" '%s' "$fd_out"
}

# gtp NAME COMMAND: sends a command, sets REPLY_OK (0/1) and REPLY (first answer line).
gtp() {
    local in_var=${1}_IN out_var=${1}_OUT line first=1
    printf '%s\n' "$2" >&"${!in_var}"
    REPLY=""
    while IFS= read -r -t 120 line <&"${!out_var}"; do
        line=${line%$'\r'}
        if [[ -z $line ]]; then break; fi
        if ((first)); then
            REPLY_OK=0
            [[ $line == =* ]] && REPLY_OK=1
            REPLY=${line#[=?]}
            REPLY=${REPLY# }
            REPLY=${REPLY% }
            first=0
        fi
    done
}

start Q "$QUARTET" othello --move-time "$MOVE_TIME"
start R "$GRHINO" --level "$LEVEL"
start A "$QUARTET" othello

RANDOM=$SEED
wins=0 losses=0 draws=0 discs=0
echo "quartet (--move-time $MOVE_TIME) vs gtp-rhino --level $LEVEL, $GAMES games, seed $SEED"
for ((g = 0; g < GAMES; g++)); do
    if ((g % 2 == 0)); then
        # A fresh opening: 4 random legal plies.
        gtp A clear_board
        opening=()
        for ((k = 0; k < 4; k++)); do
            gtp A gogui-rules_side_to_move
            side=$REPLY
            gtp A gogui-rules_legal_moves
            read -r -a legal <<<"$REPLY"
            mv=${legal[RANDOM % ${#legal[@]}]}
            gtp A "play $side $mv"
            opening+=("$side $mv")
        done
    fi
    # Quartet is black in even games, white in odd ones.
    if ((g % 2 == 0)); then q_color=black; else q_color=white; fi
    for e in Q R A; do gtp $e clear_board; done
    for m in "${opening[@]}"; do
        for e in Q R A; do gtp $e "play $m"; done
    done
    forfeit=""
    while :; do
        gtp A gogui-rules_final_result
        [[ $REPLY != unknown ]] && break
        gtp A gogui-rules_side_to_move
        side=$REPLY
        if [[ $side == "$q_color" ]]; then mover=Q other=R; else mover=R other=Q; fi
        gtp $mover "genmove $side"
        mv=$REPLY
        gtp A "play $side $mv"
        if ((!REPLY_OK)); then
            forfeit=$mover
            echo "game $((g + 1)): $mover played illegal '$mv' as $side" >&2
            break
        fi
        gtp $other "play $side $mv"
        if ((!REPLY_OK)); then echo "game $((g + 1)): $other refused $side $mv: $REPLY" >&2; fi
    done
    gtp A final_score
    result=$REPLY
    # Disc margin from quartet's point of view.
    case $result in
        B+*) d=${result#B+} ;;
        W+*) d=-${result#W+} ;;
        *) d=0 ;;
    esac
    [[ $q_color == white ]] && d=$((-d))
    if [[ $forfeit == Q ]]; then d=-64; elif [[ $forfeit == R ]]; then d=64; fi
    if ((d > 0)); then wins=$((wins + 1)); elif ((d < 0)); then losses=$((losses + 1)); else draws=$((draws + 1)); fi
    discs=$((discs + d))
    echo "game $((g + 1)): opening ${opening[*]}; quartet $q_color; result $result${forfeit:+ (forfeit $forfeit)}; quartet margin $d"
done
echo "quartet: $wins wins, $losses losses, $draws draws of $GAMES; total disc margin $discs"
for e in Q R A; do gtp $e quit || true; done
