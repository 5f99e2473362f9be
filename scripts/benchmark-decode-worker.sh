#!/usr/bin/env bash
# What reading a source in a decode worker costs against reading it in process, per format.
#
# One photograph (PHOTO, by default the corpora's 5640×3172 elephants, resized to SIDE px wide,
# 2000 by default) is written in each of FORMATS (jpeg png webp avif heic jxl tiff gif) with
# `webimage convert`, and served from loopback (python3's http.server). Two release
# `webimage serve` run side by side: one reads every format in process (SVG alone in
# workers, the default), the other reads all of them in decode workers
# (`--decode-worker-format` for each, the default pool of workers started ahead). For each
# format, ROUNDS (default 10) requests in turn to each server, after one that caches the
# source, each for a new result (`resize=W|format=png`, W = 300 + the round) so that none is
# answered from the result cache, and with no decoded sources kept (`--decoded-source-memory
# 0`), so that none is made from a kept decode: the source's header and its decode are read
# each time, in process or in two workers. Per format it prints the median wall time of a request on each
# server and the CPU per request (the server's own and that of the workers it reaped, from
# /proc/PID/stat: utime + stime + cutime + cstime), then the worker's extra CPU and wall
# time per request.
# Needs: a release build (`swift build -c release --product webimage`) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${WEBIMAGE:-$(swift build -c release --product webimage --show-bin-path)/webimage}
[ -x "$tool" ] || { echo "build it first: swift build -c release --product webimage" >&2; exit 1; }
photo=${PHOTO:-../shared/corpora/large-images/Elephants_5640x3172.jpg}
side=${SIDE:-2000}
rounds=${ROUNDS:-10}
read -r -a formats <<< "${FORMATS:-jpeg png webp avif heic jxl tiff gif}"
work=$(mktemp -d)
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/www" "$work/in-process" "$work/in-worker"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

for format in "${formats[@]}"; do
    "$tool" convert "$photo" "$work/www/source.$format" --transform "resize=$side|format=$format" >/dev/null
done
ls -l "$work/www" | tail -n +2 >&2

source_port=$(free_port)
python3 -m http.server --bind 127.0.0.1 --directory "$work/www" "$source_port" >/dev/null 2>&1 &
pids+=($!)
worker_flags=()
for format in "${formats[@]}"; do worker_flags+=(--decode-worker-format "$format"); done
start_server() { # name port flags...
    local name=$1 port=$2
    shift 2
    "$tool" serve --insecure-unsigned --allow-private-sources --port "$port" --cache-dir "$work/$name" \
        --max-source-bytes 64M --decoded-source-memory 0 "$@" > "$work/$name.log" 2>&1 &
    pids+=($!)
    echo $! > "$work/$name.pid"
}
in_process_port=$(free_port)
in_worker_port=$(free_port)
start_server in-process "$in_process_port"
start_server in-worker "$in_worker_port" "${worker_flags[@]}"

python3 - "$source_port" "$in_process_port" "$(cat "$work/in-process.pid")" "$in_worker_port" "$(cat "$work/in-worker.pid")" \
    "$rounds" "${formats[@]}" <<'PYTHON'
import os, statistics, sys, time, urllib.parse, urllib.request
source_port, rounds = sys.argv[1], int(sys.argv[6])
servers = {"in process": (sys.argv[2], sys.argv[3]), "in a worker": (sys.argv[4], sys.argv[5])}
formats = sys.argv[7:]
tick = os.sysconf("SC_CLK_TCK")

def cpu(pid):
    """The process's CPU seconds and those of its reaped children."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / tick

def get(port, spec, format):
    source = urllib.parse.quote(f"http://127.0.0.1:{source_port}/source.{format}", safe="")
    url = f"http://127.0.0.1:{port}/_/{urllib.parse.quote(spec, safe='')}/plain/{source}"
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as answer:
        answer.read()
        status = answer.status
    if status != 200:
        raise SystemExit(f"{url} answered {status}")
    return time.perf_counter() - start

for port, _ in servers.values():
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5).read()
            break
        except OSError:
            time.sleep(0.1)
print(f"| format | in process: wall (median) | in a worker: wall (median) | extra wall | in process: CPU | in a worker: CPU | extra CPU |")
print("|---|---:|---:|---:|---:|---:|---:|")
for format in formats:
    walls = {name: [] for name in servers}
    cpus = {name: 0.0 for name in servers}
    for name, (port, _) in servers.items():
        get(port, "resize=299|format=png", format)  # caches the source
    for round in range(rounds):
        for name, (port, pid) in servers.items():
            before = cpu(pid)
            walls[name].append(get(port, f"resize={300 + round}|format=png", format))
            cpus[name] += cpu(pid) - before
    inside, outside = (statistics.median(walls[name]) * 1000 for name in servers)
    cpu_inside, cpu_outside = (cpus[name] / rounds * 1000 for name in servers)
    print(f"| {format} | {inside:.1f} ms | {outside:.1f} ms | {outside - inside:+.1f} ms "
          f"| {cpu_inside:.0f} ms | {cpu_outside:.0f} ms | {cpu_outside - cpu_inside:+.0f} ms |", flush=True)
PYTHON
