#!/usr/bin/env bash
# What tracing costs `webimage serve` when it is off (no OTEL_* variable set): two builds,
# BEFORE (one without the tracing code, e.g. a release build of a8a501c, the commit before
# the tracing merge) and AFTER (this one's), run in turn, ROUNDS (default 3) times each.
#
# Each run starts the server on an empty cache and measures:
#   made:   the server's CPU (user + system, /proc/PID/stat) per result over COUNT (default 40)
#           distinct results (`resize=W|format=webp,q=80`, W from 200 up) of one 2 MP JPEG
#           that python's http.server serves on loopback, asked for by 4 clients;
#   cached: the same COUNT URLs again, now result-cache hits, for DURATION (default 10) s
#           with wrk (2 threads, 32 connections); requests/s and p99 latency.
# Prints each run, then each figure's AFTER ÷ BEFORE ratio over the paired runs (minimum,
# median, maximum).
#
#   BEFORE=/work/ci-clone/.build/release/webimage AFTER=.build/release/webimage scripts/benchmark-tracing-off.sh
#
# Needs: two release builds, wrk, curl, python3 with Pillow.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BEFORE:?BEFORE names the webimage binary without tracing}"
after=${AFTER:-.build/release/webimage}
rounds=${ROUNDS:-3}
count=${COUNT:-40}
duration=${DURATION:-10}
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

python3 -c '
import sys
from PIL import Image, ImageFilter
Image.effect_noise((1800, 1200), 40).convert("RGB").filter(ImageFilter.GaussianBlur(1)).save(sys.argv[1], quality=90)
' "$work/source.jpg"
source_port=$(free_port)
python3 -m http.server "$source_port" --bind 127.0.0.1 --directory "$work" > /dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$source_port/source.jpg" && break; sleep 0.1; done

# One run of binary $2, named $1: prints "NAME made-ms-per-result cached-req/s cached-p99".
run() {
    local name=$1 tool=$2 port list cache pid before after_cpu
    port=$(free_port)
    cache="$work/cache-$name"
    list="$work/urls-$name"
    "$tool" serve --port "$port" --insecure-unsigned --allow-private-sources --cache-dir "$cache" > "$work/$name.log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
    for index in $(seq "$count"); do
        echo "http://127.0.0.1:$port/_/resize%3D$((199 + index))%7Cformat%3Dwebp%2Cq%3D80/plain/http%3A%2F%2F127.0.0.1%3A$source_port%2Fsource.jpg"
    done > "$list"
    curl -sf -o /dev/null "$(head -1 "$list")" # the source fetched once, before the figures
    sed -i 1d "$list"
    before=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
    xargs -P 4 -n 1 curl -sf -o /dev/null < "$list"
    after_cpu=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
    wrk -t2 -c32 -d"${duration}s" --latency -s scripts/bulk/cycle-urls.lua "http://127.0.0.1:$port" -- "$list" > "$work/$name.wrk"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    local rate p99
    rate=$(awk '/^Requests\/sec/ { print $2 }' "$work/$name.wrk")
    p99=$(awk '$1 == "99%" { print $2 }' "$work/$name.wrk")
    echo "$name $(python3 -c "import sys; print(f'{(int(sys.argv[2]) - int(sys.argv[1])) * 10 / int(sys.argv[3]):.1f}')" "$before" "$after_cpu" "$((count - 1))") $rate $p99"
}

for round in $(seq "$rounds"); do
    run "before-$round" "$BEFORE"
    run "after-$round" "$after"
done | tee "$work/runs"
python3 - "$work/runs" <<'PYTHON'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, made, rate, p99 = line.split()
    side, round_ = name.split("-")
    value, unit = re.fullmatch(r"([0-9.]+)([a-z]+)", p99).groups()
    p99_ms = float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]
    runs.setdefault(round_, {})[side] = (float(made), float(rate), p99_ms)
def spread(values):
    return f"{min(values):.2f}–{statistics.median(values):.2f}–{max(values):.2f}"
pairs = [pair for pair in runs.values() if len(pair) == 2]
print(f"after ÷ before over {len(pairs)} paired runs (min–median–max):")
print(f"  CPU per result made:       {spread([pair['after'][0] / pair['before'][0] for pair in pairs])}")
print(f"  cached requests/s:         {spread([pair['after'][1] / pair['before'][1] for pair in pairs])}")
print(f"  cached p99 latency:        {spread([pair['after'][2] / pair['before'][2] for pair in pairs])}")
PYTHON
