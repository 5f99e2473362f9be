#!/usr/bin/env bash
# The CPU `webimage serve` spends on one uncached result asked for by one request, against
# the same result asked for by 32 concurrent identical requests (which share one decode,
# transform and encode): the server's user + system time from /proc/PID/stat around each.
#
# One 12 MP JPEG is served by python's http.server on loopback and fetched once before the
# rounds; each round asks for a result of its own (`cachebuster=`), so every result is made
# from the cached source. ROUNDS=N (default 10) rounds of each case, alternately; prints
# the CPU of each case over all rounds and their ratio (32 requests ÷ 1). Each round also
# sends 32 concurrent requests for `/health`, which does no image work: what 32 requests on
# fresh connections cost the server by themselves (connection, HTTP, routing, access log),
# and so the least the ratio can be — one result plus 31 such requests.
# SPEC (default `resize=400|format=webp,q=80`) is the spec asked for; ACCEPT, when set, is
# sent as the requests' `Accept` header (`format=auto` and `format=best` choose by it).
# Needs: a release build (`swift build -c release --product webimage`), curl, python3 with
# Pillow.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${WEBIMAGE:-$(swift build -c release --product webimage --show-bin-path)/webimage}
[ -x "$tool" ] || { echo "build it first: swift build -c release --product webimage" >&2; exit 1; }
rounds=${ROUNDS:-10}
spec=${SPEC:-resize=400|format=webp,q=80}
accept=(-H "Accept: ${ACCEPT:-*/*}")
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }

mkdir -p "$work/www"
python3 - "$work/www/a.jpg" <<'PYTHON'
import sys
from PIL import Image, ImageFilter
Image.effect_noise((4200, 2800), 40).convert("RGB").filter(ImageFilter.GaussianBlur(1)).save(sys.argv[1], quality=88)
PYTHON
source_port=$(free_port)
python3 -m http.server --bind 127.0.0.1 --directory "$work/www" "$source_port" > /dev/null 2>&1 &
pids+=("$!")
port=$(free_port)
"$tool" serve --port "$port" --insecure-unsigned --allow-private-sources --cache-dir "$work/cache" > "$work/serve.log" 2>&1 &
server=$!
pids+=("$server")
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
source=$(enc "http://127.0.0.1:$source_port/a.jpg")
url() { echo "http://127.0.0.1:$port/_/$(enc "$spec|cachebuster=$1")/plain/$source"; }
# The server's CPU so far, in clock ticks (user + system).
cpu() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }
# Asks for `url $1` from $2 concurrent clients; fails unless every answer is 200.
ask() {
    local target
    target=$(url "$1")
    for _ in $(seq "$2"); do curl -s "${accept[@]}" -o /dev/null -w '%{http_code}\n' "$target" & done | sort | uniq -c | grep -q "^ *$2 200$"
}
# Asks for /health from 32 concurrent clients.
ask_health() {
    for _ in $(seq 32); do curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$port/health" & done | sort | uniq -c | grep -q "^ *32 200$"
}
ask warm 1 # the source's fetch, and the server's first result
one=0 many=0 health=0
for round in $(seq "$rounds"); do
    before=$(cpu)
    ask_health
    health=$((health + $(cpu) - before))
    before=$(cpu)
    ask "one-$round" 1
    one=$((one + $(cpu) - before))
    before=$(cpu)
    ask "many-$round" 32
    many=$((many + $(cpu) - before))
done
ticks=$(getconf CLK_TCK)
python3 - "$one" "$many" "$health" "$ticks" "$rounds" <<'PYTHON'
import sys
one, many, health, ticks, rounds = (int(value) for value in sys.argv[1:])
print(f"{rounds} rounds: 1 request {one / ticks / rounds * 1000:.0f} ms CPU a result, "
      f"32 concurrent identical requests {many / ticks / rounds * 1000:.0f} ms; ratio {many / one:.2f}")
print(f"32 concurrent requests for /health {health / ticks / rounds * 1000:.1f} ms; "
      f"one result and 31 such requests: ratio {(one + health * 31 / 32) / one:.2f}")
PYTHON
