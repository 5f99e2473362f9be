#!/usr/bin/env bash
# `webimage serve` against thumbor, in turn on the same machine, with the same sources:
# 200 distinct JPEGs of 2 to 12 MP served by nginx on loopback, resized to 400 px wide WebP.
#
#   (b) cold: each server starts with empty caches and receives the 200 requests once, from
#       8 concurrent clients (scripts/bulk/cold-requests.py); requests/s, p99 latency and
#       the server's peak RSS (GNU time).
#   (a) cached: the same 200 URLs again, now cached, for 10 s with wrk (2 threads, 32
#       connections, a Lua script cycling through the URLs); requests/s and p99 latency.
#
# thumbor runs with its result storage and file storage on (so (a) is served from its
# result cache) and --processes 2, one per core, as our server uses both cores. Its two
# workers share one listening socket, and in some runs one of them accepts every keep-alive
# connection of the cold phase while the other idles: the script prints each process's CPU
# seconds in the cold phase, names such one-core runs, and gives the ratios again without them.
# CASE=fit (default) resizes to 400 px wide; CASE=fill fills 400×300 (ours
# `resize=400x300,fill`, thumbor's `/unsafe/400x300/`: its default crop to the box, no smart
# detection), which is what most thumbnails are.
# RUNS=N (default 3) repeats the pair in turn (ours, thumbor, ours, thumbor, ...), each run
# on empty caches, and prints every run, then each ratio's minimum, median and maximum.
# OURS_ONLY=1 runs our server alone (no thumbor needed; no ratios).
# Needs: a release build (`swift build -c release --product webimage`), nginx, wrk,
# GNU time, python3 with aiohttp and Pillow, and thumbor (`pip install thumbor`).
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${WEBIMAGE:-$(swift build -c release --product webimage --show-bin-path)/webimage}
[ -x "$tool" ] || { echo "build it first: swift build -c release --product webimage" >&2; exit 1; }
ours_only=${OURS_ONLY:-0}
programs=(wrk thumbor)
[ "$ours_only" = 1 ] && programs=(wrk)
for program in "${programs[@]}"; do
    command -v "$program" >/dev/null || { echo "needs $program (apt-get install wrk; pip install thumbor)" >&2; exit 1; }
done
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
count=${COUNT:-200}
runs=${RUNS:-3}
work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do stop_tree "$pid"; done
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

mkdir -p "$work/www" "$work/logs"
python3 - "$work/www" "$count" <<'PYTHON'
import os, random, sys
from PIL import Image, ImageFilter
folder, count = sys.argv[1], int(sys.argv[2])
random.seed(11)
base = Image.effect_noise((1500, 1000), 40).convert("RGB").filter(ImageFilter.GaussianBlur(1))
for index in range(count):
    megapixels = random.uniform(2, 12)
    width = int((megapixels * 1e6 * 1.5) ** 0.5)
    height = int(width / 1.5)
    tint = Image.new("RGB", base.size, tuple(random.randrange(256) for _ in range(3)))
    Image.blend(base, tint, 0.5).resize((width, height)).save(os.path.join(folder, f"{index}.jpg"), quality=88)
PYTHON
source_port=$(free_port)
cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off; sendfile on; types { image/jpeg jpg; }
    client_body_temp_path $work/logs; proxy_temp_path $work/logs; fastcgi_temp_path $work/logs;
    uwsgi_temp_path $work/logs; scgi_temp_path $work/logs;
    server { listen 127.0.0.1:$source_port; root $work/www; }
}
NGINX
"$nginx_bin" -c "$work/nginx.conf" -p "$work"
echo "$count sources, $(du -sh "$work/www" | cut -f1), from nginx on 127.0.0.1:$source_port" >&2

enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
ours_port=$(free_port)
theirs_port=$(free_port)
case ${CASE:-fit} in
    fit) spec=$(enc 'resize=400|format=webp,q=80') thumbor_size=400x0 ;;
    fill) spec=$(enc 'resize=400x300,fill|format=webp,q=80') thumbor_size=400x300 ;;
    *) echo "CASE is fit or fill" >&2; exit 1 ;;
esac
echo "case ${CASE:-fit}: ours $spec, thumbor /unsafe/$thumbor_size/" >&2
: > "$work/ours.txt"
: > "$work/theirs.txt"
for index in $(seq 0 $((count - 1))); do
    echo "http://127.0.0.1:$ours_port/_/$spec/plain/$(enc "http://127.0.0.1:$source_port/$index.jpg")" >> "$work/ours.txt"
    echo "http://127.0.0.1:$theirs_port/unsafe/$thumbor_size/filters:format(webp):quality(80)/127.0.0.1:$source_port/$index.jpg" >> "$work/theirs.txt"
done
# thumbor's configuration for run $1, with storage folders of that run's own.
write_thumbor_conf() {
    cat > "$work/thumbor-$1.conf" <<CONF
ALLOW_UNSAFE_URL = True
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '$work/thumbor-storage-$1'
RESULT_STORAGE = 'thumbor.result_storages.file_storage'
RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '$work/thumbor-results-$1'
RESULT_STORAGE_STORES_UNSAFE = True
HTTP_LOADER_MAX_BODY_SIZE = 64 * 1024 * 1024
MAX_WIDTH = 16384
MAX_HEIGHT = 16384
CONF
}
cat > "$work/urls.lua" <<'LUA'
local urls = {}
local index = 0
init = function(args)
    for line in io.lines(args[1]) do urls[#urls + 1] = line:gsub("^http://[^/]+", "") end
end
request = function()
    index = index % #urls + 1
    return wrk.format("GET", urls[index])
end
LUA

# Starts a server under GNU time; waits until it answers /health (ours) or / (thumbor).
start_server() {
    local name=$1 probe=$2
    shift 2
    /usr/bin/time -f "%M" -o "$work/$name.rss" "$@" > "$work/$name.log" 2>&1 &
    server_pid=$!
    pids+=("$server_pid")
    for _ in $(seq 100); do curl -s -o /dev/null "$probe" && return; sleep 0.1; done
    echo "$name did not start" >&2; tail "$work/$name.log" >&2; exit 1
}
# Stops the server and everything it started (thumbor's workers are its grandchildren).
stop_tree() {
    local child
    for child in $(pgrep -P "$1"); do stop_tree "$child"; done
    kill -TERM "$1" 2>/dev/null || true
}
stop_server() {
    for child in $(pgrep -P "$server_pid"); do stop_tree "$child"; done
    wait "$server_pid" 2>/dev/null || true
}

run_side() {
    local name=$1 list=$2
    python3 scripts/bulk/cold-requests.py "$list" 8 > "$work/$name.cold"
    # The CPU seconds each of the server's processes spent so far (thumbor: its workers, then
    # its parent), to tell a one-core run.
    local child worker
    for child in $(pgrep -P "$server_pid"); do
        for worker in $(pgrep -P "$child") "$child"; do
            awk '{ printf "%.1f\n", ($14 + $15) / 100 }' "/proc/$worker/stat" 2>/dev/null || true
        done
    done > "$work/$name.workers"
    python3 scripts/bulk/cold-requests.py "$list" 8 > /dev/null # make sure every result is cached
    wrk -t2 -c32 -d10s --latency -s "$work/urls.lua" "$(head -1 "$list" | sed 's|^\(http://[^/]*\).*|\1|')" -- "$list" > "$work/$name.wrk"
}

for run in $(seq "$runs"); do
    echo "run $run of $runs" >&2
    start_server "ours-$run" "http://127.0.0.1:$ours_port/health" \
        "$tool" serve --port "$ours_port" --insecure-unsigned --allow-private-sources --cache-dir "$work/ours-cache-$run"
    run_side "ours-$run" "$work/ours.txt"
    stop_server
    [ "$ours_only" = 1 ] && continue
    write_thumbor_conf "$run"
    start_server "theirs-$run" "http://127.0.0.1:$theirs_port/healthcheck" \
        thumbor --port "$theirs_port" --conf "$work/thumbor-$run.conf" --processes 2
    run_side "theirs-$run" "$work/theirs.txt"
    stop_server
done

# Prints one server's figures for one run, and appends them to $work/figures (one line:
# name, cold req/s, cached req/s, then the CPU seconds of each process in the cold phase).
report() {
    local name=$1 label=$2
    local cold_rps cold_p99 cached_rps cached_p99 rss workers
    read -r cold_rps cold_p99 < "$work/$name.cold"
    cached_rps=$(awk '/Requests\/sec/ { print $2 }' "$work/$name.wrk")
    cached_p99=$(awk '$1 == "99%" { print $2 }' "$work/$name.wrk")
    rss=$(tail -1 "$work/$name.rss")
    workers=$(paste -sd' ' "$work/$name.workers")
    printf '%-34s %10s %12s %12s %12s %14s   %s\n' "$label" "$cold_rps" "$cold_p99" "$cached_rps" "$cached_p99" "$((rss / 1024)) MiB" "$workers"
    echo "$name $cold_rps $cached_rps $workers" >> "$work/figures"
}
printf '%-34s %10s %12s %12s %12s %14s   %s\n' server "cold req/s" "cold p99" "cached req/s" "cached p99" "peak RSS" "cold CPU s per process"
for run in $(seq "$runs"); do
    report "ours-$run" "webimage serve (run $run)"
    [ "$ours_only" = 1 ] || report "theirs-$run" "thumbor --processes 2 (run $run)"
done
[ "$ours_only" = 1 ] && exit 0
python3 - "$work/figures" <<'PYTHON'
import statistics, sys
rows, one_core = {}, set()
for line in open(sys.argv[1]):
    name, cold, cached, *cpu = line.split()
    side, run = name.rsplit("-", 1)
    rows.setdefault(run, {})[side] = (float(cold), float(cached))
    # thumbor's two busiest processes: a run where the second did under a quarter of the
    # first's work ran on one core.
    busiest = sorted((float(seconds) for seconds in cpu), reverse=True)
    if side == "theirs" and len(busiest) >= 2 and busiest[1] < 0.25 * busiest[0]:
        one_core.add(run)
def summary(label, index, runs):
    ratios = sorted(rows[run]["ours"][index] / rows[run]["theirs"][index] for run in runs)
    if ratios:
        print(f"{label} req/s, ours / thumbor over {len(ratios)} paired runs: "
              f"min {ratios[0]:.2f}, median {statistics.median(ratios):.2f}, max {ratios[-1]:.2f}")
for index, label in ((0, "cold"), (1, "cached")):
    summary(label, index, rows)
if one_core:
    print(f"thumbor ran on one core (one worker took every connection) in run(s) {', '.join(sorted(one_core))}; "
          "the same ratios over the runs where both of its workers worked:")
    for index, label in ((0, "cold"), (1, "cached")):
        summary(label, index, [run for run in rows if run not in one_core])
PYTHON
