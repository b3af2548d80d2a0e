#!/usr/bin/env bash
# Screenshots of the `quartet serve` page for the README: starts the server, plays a few
# moves of each game by clicking, turns live analysis on and writes
# docs/images/serve-{go,othello,gomoku,dots}.png (then shrinks them with pngquant/optipng
# when installed).
# Needs Debian's Chromium (apt-get install chromium) and `npm install` in tests/browser.
# Usage: scripts/serve_screenshots.sh [OUT_DIR]   (default docs/images)
#        SHOT_GAMES=go,dots scripts/serve_screenshots.sh   (only those games)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/images}
mkdir -p "$out"
out=$(cd "$out" && pwd)

cargo build --release --quiet
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
target/release/quartet serve --port "$port" --bind 127.0.0.1 2>/dev/null &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    curl -fs "http://127.0.0.1:$port/api/info" >/dev/null && break
    sleep 0.2
done

export SHOT_GAMES=${SHOT_GAMES:-go,othello,gomoku,dots}
(cd tests/browser && node play.mjs shots "http://127.0.0.1:$port/" "$out")

for game in ${SHOT_GAMES//,/ }; do
    png="$out/serve-$game.png"
    if command -v pngquant >/dev/null; then
        pngquant --force --skip-if-larger --quality 70-95 --output "$png" "$png" || true
    fi
    if command -v optipng >/dev/null; then
        optipng -quiet -o2 "$png"
    fi
    echo "$png: $(wc -c <"$png") bytes"
done
