#!/usr/bin/env bash
# Long fuzzing run of the parser property tests (tests/fuzz_parsers.rs).
# Usage: nice -n 19 scripts/fuzz_long.sh [hours=2] [scale=50]   (env LOG=file, default a new temporary file)
#
# The same targets CI runs, with QUARTET_FUZZ_SCALE times their CI case counts, repeated
# until the time is up; every pass draws fresh random inputs. proptest shrinks a failure
# and saves its seed in tests/fuzz_parsers.proptest-regressions, which every later run
# (CI's too) replays first: commit that file with the fix. The log keeps each pass's result.
set -euo pipefail
HOURS=${1:-2}
SCALE=${2:-50}
cd "$(dirname "$0")/.."
LOG=${LOG:-$(mktemp -t quartet-fuzz-XXXXXX.log)}
cargo test --release --test fuzz_parsers --no-run 2>>"$LOG"
end=$(awk -v h="$HOURS" -v now="$(date +%s)" 'BEGIN { printf "%d", now + h * 3600 }')
start=$(date +%s)
passes=0
failed=0
while [ "$(date +%s)" -lt "$end" ]; do
    passes=$((passes + 1))
    echo "== pass $passes, $(date -u +%FT%TZ), scale $SCALE" >>"$LOG"
    if ! QUARTET_FUZZ_SCALE=$SCALE cargo test --release --test fuzz_parsers >>"$LOG" 2>&1; then
        failed=$((failed + 1))
        echo "fuzz_long: pass $passes FAILED (see $LOG)" >&2
    fi
done
secs=$(($(date +%s) - start))
echo "fuzz_long: $passes passes at scale $SCALE in $secs s, $failed failed; log $LOG"
if ! git diff --quiet -- tests/fuzz_parsers.proptest-regressions; then
    echo "fuzz_long: new failing cases saved in tests/fuzz_parsers.proptest-regressions"
fi
[ "$failed" -eq 0 ]
