#!/usr/bin/env bash
# Soak test of `quartet match` with our four engines: many short games at 0.05 s and 0.2 s
# a move, some engines killed (SIGKILL) at a random moment, and afterwards the checks:
#   - every scheduled game is in results.tsv, once;
#   - no game lost on time, by an illegal move or by a malformed answer;
#   - every forfeit ("failure") says "engine died" and there are no more of them than
#     kills that fired (the only crashes allowed are the test's own);
#   - RSS: `ps` samples every engine and the match process once a second; for each
#     engine the peak RSS of its first and of its last process is printed, and a last
#     one above twice the first plus 16 MB fails the run (as does the match process
#     growing that much).
#
# Usage: scripts/soak.sh [OUT_DIR]   (default /tmp/quartet-soak)
# Environment (defaults): QUARTET (target/release/quartet), GAMES (10000 in total, split
# evenly over go, othello, gomoku, dots), MAX_MOVES (10: games are adjudicated by our rules
# after that many moves, so the games are short), KILL_PERCENT (10: share of engine
# processes that get a killer), CONCURRENCY (2), GAME_LIST ("go othello gomoku dots").
# Boards: Go 9x9 komi 7.5, Othello 8x8, Gomoku 15x15 freestyle, Dots 5x5.
# Timed games: do not run it under `nice`; a loaded machine can make a move late.
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
OUT=${1:-/tmp/quartet-soak}
QUARTET=$(readlink -f "${QUARTET:-target/release/quartet}")
GAMES=${GAMES:-10000}
MAX_MOVES=${MAX_MOVES:-10}
CONCURRENCY=${CONCURRENCY:-2}
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
rounds=$(((GAMES / ngames + 1) / 2))

sample_rss() { # every second: epoch, pid, rss kB, program path (our processes only)
    while :; do
        ps -eo pid=,rss=,args= | awk -v t="$(date +%s)" -v o="$OUT/bin/" -v q="$QUARTET" \
            'index($3, o) == 1 { n = split($3, p, "/"); print t, $1, $2, $4 "-" p[n] }
             $3 == q && $4 == "match" { print t, $1, $2, "match-" $5 }' >>"$OUT/rss.log"
        sleep 1
    done
}
sample_rss &
sampler=$!
trap 'kill $sampler 2>/dev/null' EXIT

fail=0
echo "soak: $GAME_LIST, $rounds rounds each ($((rounds * 2)) games), at most $MAX_MOVES moves, kill $KILL_PERCENT%, concurrency $CONCURRENCY"
for game in $GAME_LIST; do
    case $game in
    go) args=(--boardsize 9 --komi 7.5) window=2 ;;
    othello) args=() window=2 ;;
    gomoku) args=(--boardsize 15 --rule freestyle) window=2 ;;
    dots) args=(--boardsize 5x5) window=2 ;;
    esac
    export SOAK_KILL_LOG="$OUT/$game-kills.log" KILL_WINDOW=$window
    : >"$SOAK_KILL_LOG"
    start=$(date +%s)
    set +e
    "$QUARTET" match "$game" "${args[@]}" \
        --engine "name=fast st=0.05 cmd=$SELF engine $OUT/bin/fast $OUT/bin/fast $game" \
        --engine "name=slow st=0.2 cmd=$SELF engine $OUT/bin/slow $OUT/bin/slow $game" \
        --rounds "$rounds" --max-moves "$MAX_MOVES" --concurrency "$CONCURRENCY" \
        --out "$OUT/$game" >"$OUT/$game.table" 2>"$OUT/$game.progress"
    status=$?
    set -e
    secs=$(($(date +%s) - start))
    tsv="$OUT/$game/results.tsv"
    if [ $status -ne 0 ] || [ ! -f "$tsv" ]; then
        echo "FAIL $game: quartet match exited with $status"
        tail -3 "$OUT/$game.progress"
        fail=1
        continue
    fi
    planned=$(awk -F'\t' '$1 == "games" { print $2 }' "$tsv")
    armed=$(grep -c '^armed' "$SOAK_KILL_LOG" || true)
    killed=$(grep -c '^killed' "$SOAK_KILL_LOG" || true)
    died=$(grep -c 'failure (.*engine died)' "$OUT/$game.progress" || true)
    summary=$(awk -F'\t' -v planned="$planned" -v killed="$killed" -v died="$died" '
        $1 == "g" { n++; seen[$2]++; if (seen[$2] > 1) dup++; reason[$8]++ }
        END {
            bad = ""
            if (n != planned) bad = bad " games " n " of " planned
            if (dup) bad = bad " duplicates " dup
            for (r in reason) if (r == "time" || r == "illegal" || r == "malformed") bad = bad " " r " " reason[r]
            if (reason["failure"] != died) bad = bad " failures without \"engine died\" " reason["failure"] - died
            if (reason["failure"] > killed) bad = bad " more failures than kills"
            line = n " games"
            for (r in reason) line = line ", " r " " reason[r]
            print (bad == "" ? "ok" : "BAD" bad) " | " line
        }' "$tsv")
    echo "$game: $summary | kills armed $armed, fired $killed | $secs s"
    case $summary in ok*) ;; *) fail=1 ;; esac
done
kill $sampler 2>/dev/null || true
trap - EXIT

# Engines: peak RSS of the first and of the last process of each engine. The match
# process (one per game) lives through all its games: its first and last sample.
rss=$(awk '
    $4 ~ /^match-/ { if (!($4 in mfirst)) mfirst[$4] = $3; mlast[$4] = $3; next }
    { if (!($4 in first)) first[$4] = $2; last[$4] = $2
      if ($3 > peak[$4 " " $2]) peak[$4 " " $2] = $3 }
    END {
        for (p in first) {
            a = peak[p " " first[p]]; b = peak[p " " last[p]]
            printf "RSS engine %s: first process %d kB, last process %d kB (%s)\n", p, a, b,
                (b > 2 * a + 16384) ? "GROWS" : "stable" }
        for (m in mfirst)
            printf "RSS %s process: first sample %d kB, last sample %d kB (%s)\n", m, mfirst[m], mlast[m],
                (mlast[m] > 2 * mfirst[m] + 16384) ? "GROWS" : "stable" }' \
    "$OUT/rss.log" | sort)
echo "$rss"
case $rss in *GROWS*) fail=1 ;; esac
echo "load: $(uptime)"
[ $fail -eq 0 ] && echo "soak: PASS" || echo "soak: FAIL"
exit $fail
