#!/usr/bin/env bash
# Soak test of `quartet match`: many short timed games of the four engines, some killed.
# Usage: scripts/soak.sh [OUT_DIR=target/soak]   (settings by environment, below)
#
# Games at 0.05 s and 0.2 s a move, some engines killed (SIGKILL) at a random moment, and
# afterwards the checks:
#   - every scheduled game is in its results.tsv, once;
#   - no game lost on time, by an illegal move or by a malformed answer;
#   - every forfeit ("failure") says "engine died" and there are no more of them than
#     kills that fired (the only crashes allowed are the test's own);
#   - RSS: `ps` samples every engine and the match process four times a second; for each
#     engine the peak RSS of its first and last process is printed, and the highest peak
#     among its first and among its last 20 processes: a last-20 peak above twice the
#     first-20 peak plus 16 MB fails the run (as does the match process growing that much).
#
# Environment (defaults): QUARTET (target/release/quartet), GAMES (10000 in total, split
# evenly over go, othello, gomoku, dots), MAX_MOVES (10: games are adjudicated by our rules
# after that many moves, so the games are short), KILL_PERCENT (10: share of engine
# processes that get a killer), CONCURRENCY (2), GAME_LIST ("go othello gomoku dots"),
# CHUNK_ROUNDS (25: each `quartet match` plays 50 games of one game; the games take turns
# chunk by chunk, so a run cut short still covers all of them), STOP_AT (epoch seconds:
# no chunk starts after it; e.g. STOP_AT=$(date -d 03:50 +%s)).
# Boards: Go 9x9 komi 7.5, Othello 8x8, Gomoku 15x15 freestyle, Dots 5x5.
# Timed games: do not run it under `nice`, and not beside other heavy work: a starved
# engine can make a move late.
#
# `soak.sh engine BIN ARGS...` is the engine wrapper the script puts in each --engine.
set -euo pipefail

if [ "${1:-}" = engine ]; then
    shift
    bin=$1 # the program, then the command line to run
    shift
    # With probability KILL_PERCENT, a killer that sends SIGKILL to this process (the
    # engine, after exec) within KILL_WINDOW seconds. It checks the PID still runs our
    # binary, so a PID reused after the engine exited is never hit. Its own standard
    # streams are closed so it holds no pipe of the engine open.
    if [ $((RANDOM % 100)) -lt "${KILL_PERCENT:-10}" ]; then
        delay=$(awk -v r=$RANDOM -v w="${KILL_WINDOW:-2}" 'BEGIN { printf "%.3f", r / 32768 * w }')
        echo armed >>"$SOAK_KILL_LOG"
        target=$$
        (
            sleep "$delay"
            if [ "$(readlink "/proc/$target/exe" 2>/dev/null)" = "$bin" ]; then
                kill -KILL "$target" 2>/dev/null && echo "killed $target after $delay s" >>"$SOAK_KILL_LOG"
            fi
        ) </dev/null >/dev/null 2>&1 &
    fi
    exec "$@"
fi

cd "$(dirname "$0")/.."
OUT=${1:-target/soak}
QUARTET=$(readlink -f "${QUARTET:-target/release/quartet}")
GAMES=${GAMES:-10000}
MAX_MOVES=${MAX_MOVES:-10}
CONCURRENCY=${CONCURRENCY:-2}
CHUNK_ROUNDS=${CHUNK_ROUNDS:-25}
GAME_LIST=${GAME_LIST:-"go othello gomoku dots"}
export KILL_PERCENT=${KILL_PERCENT:-10}
SELF=$(readlink -f "$0")
rm -rf "$OUT"
mkdir -p "$OUT/bin"
# One copy of the binary per engine, so `ps` tells the engines apart by path.
for name in fast slow; do
    cp "$QUARTET" "$OUT/bin/$name"
done
ngames=$(echo $GAME_LIST | wc -w)
per_game=$(((GAMES + ngames - 1) / ngames))

sample_rss() { # four times a second: epoch, pid, rss kB, which process (our processes only)
    while :; do
        ps -eo pid=,rss=,args= | awk -v t="$(date +%s)" -v o="$OUT/bin/" -v q="$QUARTET" \
            'index($3, o) == 1 { n = split($3, p, "/"); print t, $1, $2, "engine-" $4 "-" p[n] }
             $3 == q && $4 == "match" { print t, $1, $2, "match-" $5 }' >>"$OUT/rss.log"
        sleep 0.25
    done
}
sample_rss &
sampler=$!
trap 'kill $sampler 2>/dev/null' EXIT

# One chunk: CHUNK_GAMES games of one game in one `quartet match`; appends to
# $OUT/GAME.chunks: planned played duplicates time illegal malformed failures died
# kills-armed kills-fired exit-status seconds.
run_chunk() {
    local game=$1 k=$2 args window
    case $game in
    go) args=(--boardsize 9 --komi 7.5) ;;
    othello) args=() ;;
    gomoku) args=(--boardsize 15 --rule freestyle) ;;
    dots) args=(--boardsize 5x5) ;;
    esac
    local dir="$OUT/$game/chunk-$k"
    mkdir -p "$dir"
    export SOAK_KILL_LOG="$dir/kills.log" KILL_WINDOW=$((MAX_MOVES / 4 + 1))
    : >"$SOAK_KILL_LOG"
    local start status
    start=$(date +%s)
    set +e
    "$QUARTET" match "$game" "${args[@]}" \
        --engine "name=fast st=0.05 cmd=$SELF engine $OUT/bin/fast $OUT/bin/fast $game" \
        --engine "name=slow st=0.2 cmd=$SELF engine $OUT/bin/slow $OUT/bin/slow $game" \
        --rounds "$CHUNK_ROUNDS" --max-moves "$MAX_MOVES" --concurrency "$CONCURRENCY" \
        --out "$dir" >"$dir/table" 2>"$dir/progress"
    status=$?
    set -e
    local tsv="$dir/results.tsv"
    [ -f "$tsv" ] || : >"$tsv"
    local planned armed killed died
    planned=$((CHUNK_ROUNDS * 2))
    armed=$(grep -c '^armed' "$SOAK_KILL_LOG" || true)
    killed=$(grep -c '^killed' "$SOAK_KILL_LOG" || true)
    died=$(grep -c 'failure (.*engine died)' "$dir/progress" || true)
    awk -F'\t' -v planned="$planned" -v armed="$armed" -v killed="$killed" -v died="$died" \
        -v status="$status" -v secs="$(($(date +%s) - start))" '
        $1 == "g" { n++; if (seen[$2]++) dup++; reason[$8]++ }
        END { print planned, n + 0, dup + 0, reason["time"] + 0, reason["illegal"] + 0,
                    reason["malformed"] + 0, reason["failure"] + 0, died, armed, killed, status, secs }' \
        "$tsv" >>"$OUT/$game.chunks"
}

stop_at=${STOP_AT:-}
fail=0
echo "soak: $GAME_LIST, $per_game games each in chunks of $((CHUNK_ROUNDS * 2)), at most $MAX_MOVES moves, kill $KILL_PERCENT%, concurrency $CONCURRENCY${stop_at:+, no new chunk after $(date -u -d @"$stop_at" +%H:%M:%S) UTC}"
k=0
while [ $((k * CHUNK_ROUNDS * 2)) -lt "$per_game" ]; do
    if [ -n "$stop_at" ] && [ "$(date +%s)" -ge "$stop_at" ]; then
        echo "soak: stopped at the deadline after $k chunks per game"
        break
    fi
    k=$((k + 1))
    for game in $GAME_LIST; do
        run_chunk "$game" "$k"
    done
done
for game in $GAME_LIST; do
    [ -f "$OUT/$game.chunks" ] || continue
    summary=$(awk '
        { planned += $1; n += $2; dup += $3; time += $4; ill += $5; mal += $6; fl += $7
          died += $8; armed += $9; killed += $10; if ($11 != 0) st++; secs += $12 }
        END {
            bad = ""
            if (n != planned) bad = bad " games " n " of " planned
            if (dup) bad = bad " duplicates " dup
            if (time) bad = bad " time " time
            if (ill) bad = bad " illegal " ill
            if (mal) bad = bad " malformed " mal
            if (fl != died) bad = bad " failures without \"engine died\" " fl - died
            if (fl > killed) bad = bad " more failures than kills"
            if (st) bad = bad " match exited non-zero " st " times"
            printf "%s | %d of %d games, time losses %d, illegal %d, malformed %d, failures %d (all \"engine died\": %s) | kills armed %d, fired %d | %d chunks, %d s\n",
                (bad == "" ? "ok" : "BAD" bad), n, planned, time, ill, mal, fl, (fl == died ? "yes" : "no"), armed, killed, NR, secs
        }' "$OUT/$game.chunks")
    echo "$game: $summary"
    case $summary in ok*) ;; *) fail=1 ;; esac
done
kill $sampler 2>/dev/null || true
trap - EXIT

# Peak RSS of each engine (a fresh process every game) and of each game's match process
# (a fresh one every chunk): of its first and of its last process, and the highest peak
# among its first and among its last 20 processes. Growth is judged on the latter: one
# process can be sampled (or killed) before it allocates its tables, so single processes
# differ by their tables' size even when nothing leaks.
rss=$(awk '
    { key = $4 " " $2
      if (!(key in seen)) { seen[key] = 1; order[$4, ++count[$4]] = $2 }
      if ($3 > peak[key]) peak[key] = $3 }
    END {
        for (p in count) {
            n = count[p]; k = (n < 40 ? int((n + 1) / 2) : 20); a = 0; b = 0
            for (i = 1; i <= k; i++) {
                x = peak[p " " order[p, i]]; if (x > a) a = x
                y = peak[p " " order[p, n - i + 1]]; if (y > b) b = y
            }
            printf "RSS %s: %d processes; first %d kB, last %d kB; peak of the first %d %d kB, of the last %d %d kB (%s)\n",
                p, n, peak[p " " order[p, 1]], peak[p " " order[p, n]], k, a, k, b,
                (b > 2 * a + 16384) ? "GROWS" : "stable" } }' \
    "$OUT/rss.log" | sort)
echo "$rss"
case $rss in *GROWS*) fail=1 ;; esac
echo "load: $(uptime)"
[ $fail -eq 0 ] && echo "soak: PASS" || echo "soak: FAIL"
exit $fail
