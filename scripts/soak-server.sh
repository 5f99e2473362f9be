#!/usr/bin/env bash
# Ten minutes of steady mixed load on a release `webimage serve`: does its memory level off
# under its budget, and does every well-formed request get 200 while hostile sources are
# mixed in?
#
# Sources come from a small Python server on loopback (scripts/soak/sources.py): 60
# photographs of 1 to 5 MP (JPEG, PNG and WebP, made with Pillow) and the hostile ones of
# issue 39 — a 1 × 30,000,000 PNG (60 KB on the wire), a 30,000,000 × 1 PNG, a 1,000-page
# TIFF, a truncated JPEG, a file that is not an image, a 404, and a source that sends its
# headers and then one byte every 2 s.
#
# Six clients (scripts/soak/load.py) send requests without pause for DURATION seconds
# (default 600). Four in five ask for a photograph under a spec of their own (a fit or fill
# to a random size, a random format and quality, sometimes a blur or smart crop), so
# nearly every request misses the result cache; one in five asks for a hostile source under
# one of the ordinary specs an operator signs. The server runs with its defaults except a
# memory budget of BUDGET (default 256M, `--memory-budget`) so that the budget, not the
# machine, is what binds.
#
# Printed: the server's resident memory each 30 s, its peak (VmHWM), every status by kind,
# and each well-formed request that did not answer 200. Exits 1 when one did not, or when
# the peak passes the budget plus OVERHEAD MiB (default 256: the code, the connections and
# the allocator's free pages).
#
# Needs a release build (`swift build -c release --product webimage`) and python3 with
# Pillow.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${WEBIMAGE:-$(swift build -c release --product webimage --show-bin-path)/webimage}
[ -x "$tool" ] || { echo "build it first: swift build -c release --product webimage" >&2; exit 1; }
duration=${DURATION:-600}
budget=${BUDGET:-256M}
overhead=${OVERHEAD:-256}
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

source_port=$(free_port)
python3 scripts/soak/sources.py "$work/www" "$source_port" > "$work/sources.log" 2>&1 &
pids+=($!)
for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$source_port/ready" && break; sleep 0.5; done
curl -sf -o /dev/null "http://127.0.0.1:$source_port/ready" || { echo "the source server did not start" >&2; cat "$work/sources.log" >&2; exit 1; }

port=$(free_port)
"$tool" serve --port "$port" --insecure-unsigned --allow-private-sources --cache-dir "$work/cache" \
    --memory-budget "$budget" > "$work/server.log" 2>&1 &
server=$!
pids+=("$server")
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done

budget_mib=$(python3 -c '
import sys
value = sys.argv[1].upper()
scale = {"K": 1 / 1024, "M": 1, "G": 1024}.get(value[-1], 1 / (1 << 20))
print(int(float(value.rstrip("KMG")) * scale))' "$budget")
echo "webimage serve (pid $server, $("$tool" --version 2>/dev/null || echo release build)) with --memory-budget $budget for $duration s; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 scripts/soak/load.py "http://127.0.0.1:$port" "http://127.0.0.1:$source_port" "$duration" "$server" \
    "$((budget_mib + overhead))"
status=$?
kill -TERM "$server"
wait "$server" || true
exit $status
