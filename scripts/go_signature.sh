#!/usr/bin/env bash
# Fixed-work signature of the Go search: the same GTP game under fourteen option sets.
# Usage: scripts/go_signature.sh [QUARTET_BINARY=target/release/quartet] [PLAYOUTS=2000]
#
# One search thread, a fixed seed and a fixed playout count, so two builds that search the
# same way print the same text: diff the outputs of two builds, and any change in moves,
# playout counts, visits or win rates shows. Per option set it prints the moves answered
# and, per genmove, the playouts and the five most visited moves with their visits and win
# rates (from the engine's debug log; times are left out). About a minute.
set -euo pipefail
Q=$(realpath "${1:-target/release/quartet}")
N=${2:-2000}
cd "$(dirname "$0")/.."

# Six moves from the empty 9x9 board (the tree is kept from move to move), two from a
# middle-game position with strings in atari and short of liberties, one on 13x13 and one
# in a two-stone handicap game (where --dynkomi acts).
script() {
    cat <<'EOF'
boardsize 9
komi 7
clear_board
genmove b
genmove w
genmove b
genmove w
genmove b
genmove w
clear_board
play b E5
play w E4
play b D4
play w F5
play b F4
play w E6
play b D6
play w F3
play b G4
play w D5
play b C5
play w E3
play b D3
genmove w
genmove b
boardsize 13
clear_board
play b D4
play w K10
play b K4
genmove w
boardsize 9
clear_board
fixed_handicap 2
genmove w
EOF
}

# One engine per option set, sent each command once the previous one is answered, as a
# controller does.
run() {
    echo "== $*"
    local log
    log=$(mktemp)
    coproc ENGINE { "$Q" go --playouts "$N" --threads 1 --seed 7 --log-level quartet=debug "$@" 2>"$log"; }
    local cmd line
    while IFS= read -r cmd; do
        echo "$cmd" >&"${ENGINE[1]}"
        while IFS= read -r line <&"${ENGINE[0]}"; do
            [ -z "$line" ] && break
            [ "$line" = "=" ] || echo "$cmd: $line"
        done
    done < <(script)
    echo quit >&"${ENGINE[1]}"
    wait "$ENGINE_PID"
    grep -E 'genmove [a-z]+ playouts|visits' "$log" \
        | sed -E -e 's/^[^ ]*Z +//' -e 's/ ms=[0-9]+//' -e 's/ quartet::[a-z_:]+: / /'
    rm -f "$log"
}

run
run --mercy 0
run --mercy 10
run --lgrf first
run --lgrf after-captures
run --lgrf before-random
run --nakade 0.5
run --global-capture 0.5
run --rave-equiv 1000
run --weak-prior 20
run --priors classic
run --priors mm-replace --mm-norm sum --mm-weight 200
run --mm-weights data/go/mm-v3.txt
run --dynkomi 7
