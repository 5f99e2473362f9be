# shellcheck shell=bash
# The parts scripts/benchmark-server.sh and scripts/benchmark-formats.sh share: `webimage serve`
# against thumbor, in turn, on sources that nginx serves from loopback. Sourced (not run) from
# the project root after `set -euo pipefail`. Reads WEBIMAGE, OURS_ONLY, OURS_ARGS, RUNS and
# DURATION; sets tool, ours_only, ours_args, runs, duration, work (a temporary folder, removed
# on exit with every server and nginx stopped), ours_port, ours_metrics_port (our /metrics)
# and theirs_port. The sourcing script writes its sources under $work/www, calls start_nginx,
# writes its URL lists, calls run_pair for each run, then report for each server and run, and
# scripts/bulk/server-ratios.py on $work/figures.
tool=${WEBIMAGE:-$(swift build -c release --product webimage --show-bin-path)/webimage}
[ -x "$tool" ] || { echo "build it first: swift build -c release --product webimage" >&2; exit 1; }
ours_only=${OURS_ONLY:-0}
# Extra arguments for `webimage serve`, split on spaces (e.g. "--decoded-source-memory 64M").
read -r -a ours_args <<< "${OURS_ARGS:-}"
# shellcheck disable=SC2034 # read by the sourcing script
runs=${RUNS:-3}
duration=${DURATION:-10}
programs=(wrk thumbor)
[ "$ours_only" = 1 ] && programs=(wrk)
for program in "${programs[@]}"; do
    command -v "$program" >/dev/null || { echo "needs $program (apt-get install wrk; pip install thumbor)" >&2; exit 1; }
done
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
work=$(mktemp -d)
chmod 755 "$work"
mkdir -p "$work/www" "$work/logs"
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do stop_tree "$pid"; done
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
ours_port=$(free_port)
ours_metrics_port=$(free_port)
theirs_port=$(free_port)

# Serves $work/www from nginx on 127.0.0.1:$source_port (one worker, sendfile, no logs).
start_nginx() {
    source_port=$(free_port)
    cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off; sendfile on;
    types { image/jpeg jpg jpeg; image/png png; image/webp webp; image/avif avif; }
    client_body_temp_path $work/logs; proxy_temp_path $work/logs; fastcgi_temp_path $work/logs;
    uwsgi_temp_path $work/logs; scgi_temp_path $work/logs;
    server { listen 127.0.0.1:$source_port; root $work/www; }
}
NGINX
    "$nginx_bin" -c "$work/nginx.conf" -p "$work"
}

# thumbor's configuration for run $1, with storage folders of that run's own, then the lines of
# $thumbor_extra_conf. Both servers give a source 90 s and a request 120 s (ours: start_ours),
# so that a loaded machine slows a run instead of failing it.
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
HTTP_LOADER_CONNECT_TIMEOUT = 60
HTTP_LOADER_REQUEST_TIMEOUT = 90
${thumbor_extra_conf:-}
CONF
}
# Starts a server under GNU time; waits until it answers the probe URL.
start_server() {
    local name=$1 probe=$2
    shift 2
    /usr/bin/time -f "%M" -o "$work/$name.rss" "$@" > "$work/$name.log" 2>&1 &
    server_pid=$!
    pids+=("$server_pid")
    for _ in $(seq 100); do curl -s -o /dev/null "$probe" && return; sleep 0.1; done
    echo "$name did not start" >&2; tail "$work/$name.log" >&2; exit 1
}
start_ours() {
    start_server "$1" "http://127.0.0.1:$ours_port/health" \
        "$tool" serve --port "$ours_port" --insecure-unsigned --allow-private-sources --cache-dir "$work/ours-cache-$1" \
        --request-timeout 120 --timeout 90 --metrics-port "$ours_metrics_port" ${ours_args[@]+"${ours_args[@]}"}
}
start_thumbor() {
    write_thumbor_conf "$1"
    start_server "$1" "http://127.0.0.1:$theirs_port/healthcheck" \
        thumbor --port "$theirs_port" --conf "$work/thumbor-$1.conf" --processes 2
}
# Stops the server and everything it started (thumbor's workers are its grandchildren), and
# waits (at most 5 s each) until they are gone: a worker may outlive its parent for a moment,
# and should not share the cores with the next server.
stopped=()
stop_tree() {
    local child
    for child in $(pgrep -P "$1"); do stop_tree "$child"; done
    kill -TERM "$1" 2>/dev/null || true
    stopped+=("$1")
}
stop_server() {
    local child pid
    stopped=()
    for child in $(pgrep -P "$server_pid"); do stop_tree "$child"; done
    wait "$server_pid" 2>/dev/null || true
    for pid in "${stopped[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
}

# Called with the server's name and URL list once the cold phase is over (its results are
# cached by then); a script may redefine it to check the answers.
after_cold() { :; }
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
    # Ours: the decoded-source tier's counters at the end of the cold phase.
    if [[ $name == ours-* ]]; then
        curl -s "http://127.0.0.1:$ours_metrics_port/metrics" | grep '^webimage_decoded_source' > "$work/$name.decoded" || true
    fi
    after_cold "$name" "$list"
    python3 scripts/bulk/cold-requests.py "$list" 8 > /dev/null # make sure every result is cached
    wrk -t2 -c32 -d"${duration}s" --latency -s scripts/bulk/cycle-urls.lua "$(head -1 "$list" | sed 's|^\(http://[^/]*\).*|\1|')" -- "$list" > "$work/$name.wrk"
    # Each process's peak RSS (VmHWM) summed: GNU time's figure is the largest process's alone
    # (thumbor's parent; its workers are not counted). The sum counts the pages processes share
    # once for each of them.
    descendants "$server_pid" | while read -r pid; do
        awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true
    done | awk '{ sum += $1 } END { print int(sum / 1024) }' > "$work/$name.hwm"
}
# Prints the process ids under $1, not $1 itself.
descendants() {
    local child
    for child in $(pgrep -P "$1"); do echo "$child"; descendants "$child"; done
}
# One run of ours (server ours-$1) on the URLs of list $2, then, unless OURS_ONLY=1 or $3 is
# empty, thumbor's (theirs-$1) on those of list $3, each started on empty caches and stopped.
run_pair() {
    start_ours "ours-$1"
    run_side "ours-$1" "$2"
    stop_server
    if [ "$ours_only" = 1 ] || [ -z "${3:-}" ]; then return; fi
    start_thumbor "theirs-$1"
    run_side "theirs-$1" "$3"
    stop_server
}

# Prints one server's figures for one run, and appends them to $work/figures (one line: name,
# cold req/s, cached req/s, peak RSS in MiB (GNU time), the sum of every process's peak RSS
# in MiB, then the CPU seconds of each process in the cold phase), for
# scripts/bulk/server-ratios.py. For ours, a second line gives the decoded-source tier's hits,
# misses and evictions at the end of the cold phase (from /metrics), when it kept any.
report_header() {
    printf '%-34s %10s %12s %12s %12s %10s %10s   %s\n' server "cold req/s" "cold p99" "cached req/s" "cached p99" \
        "peak RSS" "all procs" "cold CPU s per process"
}
report() {
    local name=$1 label=$2
    local cold_rps cold_p99 cached_rps cached_p99 rss hwm workers
    read -r cold_rps cold_p99 < "$work/$name.cold"
    cached_rps=$(awk '/Requests\/sec/ { print $2 }' "$work/$name.wrk")
    cached_p99=$(awk '$1 == "99%" { print $2 }' "$work/$name.wrk")
    rss=$(($(tail -1 "$work/$name.rss") / 1024))
    hwm=$(cat "$work/$name.hwm")
    workers=$(paste -sd' ' "$work/$name.workers")
    printf '%-34s %10s %12s %12s %12s %10s %10s   %s\n' "$label" "$cold_rps" "$cold_p99" "$cached_rps" "$cached_p99" \
        "$rss MiB" "$hwm MiB" "$workers"
    echo "$name $cold_rps $cached_rps $rss $hwm $workers" >> "$work/figures"
    if [ -s "$work/$name.decoded" ]; then
        awk '/result="hit"/ { hits = $2 } /result="miss"/ { misses = $2 } /evictions_total/ { evicted = $2 }
            END { printf "%-34s decoded sources after the cold phase: %d hits, %d misses (%.0f %% hits), %d evicted\n", "",
                hits, misses, hits + misses ? 100 * hits / (hits + misses) : 0, evicted }' "$work/$name.decoded"
    fi
}
