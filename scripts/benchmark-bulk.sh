#!/usr/bin/env bash
# Whole-process bulk loading (issue 19): the job the library exists for, measured against
# what a Python user would write.
#
# nginx on 127.0.0.1 serves 1,000 distinct generated JPEGs of about 50 KB. In turn, RUNS
# times (default 5), each into an empty cache:
#   fetch     webimage fetch --json --from LIST     (download, decode, memory + disk cache)
#   prefetch  webimage prefetch --from LIST         (download, header check, disk cache)
#   python    scripts/bulk/python-baseline.py       (aiohttp, 6 connections, Pillow load()
#                                                   on 2 threads, each body written to a file)
# and prints each one's median images per second, CPU seconds and peak RSS (GNU time), and
# the medians (with min–max) of the per-round ratios against the Python script.
#
# With BIG=1 it then runs the 20 MP case: one 20 MP JPEG served under 500 URLs,
# `webimage prefetch` and `webimage fetch` (default limits) once each, with their peak RSS
# and the memory cache's limit from `webimage cache info`.
#
# Needs: a release build (`swift build -c release --product webimage`, or WEBIMAGE=path),
# nginx, GNU time, python3 with aiohttp and Pillow (`pip install aiohttp Pillow`).
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${WEBIMAGE:-$(swift build -c release --product webimage --show-bin-path)/webimage}
[ -x "$tool" ] || { echo "build it first: swift build -c release --product webimage" >&2; exit 1; }
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "needs nginx (apt-get install nginx-light)" >&2; exit 1; }
python3 -c "import aiohttp, PIL" 2>/dev/null || { echo "needs: pip install aiohttp Pillow" >&2; exit 1; }
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
runs=${RUNS:-5}
count=${COUNT:-1000}

work=$(mktemp -d)
cleanup() {
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/www" "$work/logs"
chmod 755 "$work" # nginx's workers run as an unprivileged user

# 1,000 distinct photographs' worth of JPEGs: smooth gradients with noise, ~50 KB each.
python3 - "$work/www" "$count" <<'PYTHON'
import os, random, sys
from PIL import Image, ImageFilter
folder, count = sys.argv[1], int(sys.argv[2])
random.seed(7)
base = Image.effect_noise((640, 480), 48).convert("RGB")
for index in range(count):
    tint = Image.new("RGB", (640, 480), (random.randrange(256), random.randrange(256), random.randrange(256)))
    image = Image.blend(base.rotate(index % 360), tint, 0.55).filter(ImageFilter.GaussianBlur(1.2))
    image.save(os.path.join(folder, f"{index}.jpg"), quality=92)
PYTHON

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    types { image/jpeg jpg; }
    client_body_temp_path $work/logs;
    proxy_temp_path $work/logs;
    fastcgi_temp_path $work/logs;
    uwsgi_temp_path $work/logs;
    scgi_temp_path $work/logs;
    server {
        listen 127.0.0.1:$port;
        root $work/www;
        location /big/ { try_files /big.jpg =404; }
    }
}
NGINX
"$nginx_bin" -c "$work/nginx.conf" -p "$work"
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/0.jpg" -o /dev/null && break; sleep 0.1; done
seq 0 $((count - 1)) | sed "s|.*|http://127.0.0.1:$port/&.jpg|" > "$work/list.txt"
bytes=$(du -cb "$work"/www/*.jpg | tail -1 | cut -f1)
echo "$count JPEGs, $((bytes / count / 1000)) KB on average, from nginx on 127.0.0.1:$port"

# One measured run: wall seconds, CPU seconds (user + system) and peak RSS in KiB.
measure() {
    local name=$1
    shift
    rm -rf "$work/cache"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" > "$work/out.txt" 2> "$work/err.txt" || {
        echo "$name failed:" >&2
        tail -5 "$work/err.txt" >&2
        tail -3 "$work/out.txt" >&2
        exit 1
    }
    read -r wall user system rss < "$work/time.txt"
    echo "$name $wall $(python3 -c "print($user + $system)") $rss" >> "$work/results.txt"
}

for round in $(seq "$runs"); do
    measure fetch "$tool" fetch --json --cache-dir "$work/cache" --from "$work/list.txt"
    measure prefetch "$tool" prefetch --cache-dir "$work/cache" --from "$work/list.txt"
    measure python python3 scripts/bulk/python-baseline.py "$work/list.txt" "$work/cache"
    echo "round $round of $runs done" >&2
done

python3 - "$work/results.txt" "$count" <<'PYTHON'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
count = int(sys.argv[2])
runs = {}
for name, wall, cpu, rss in rows:
    runs.setdefault(name, []).append((float(wall), float(cpu), int(rss) / 1024))
print(f"{'job':<10} {'images/s':>9} {'CPU s':>7} {'CPU ms/image':>13} {'peak RSS MiB':>13}")
for name, values in runs.items():
    wall = statistics.median(v[0] for v in values)
    cpu = statistics.median(v[1] for v in values)
    rss = statistics.median(v[2] for v in values)
    print(f"{name:<10} {count / wall:9.0f} {cpu:7.2f} {cpu / count * 1000:13.2f} {rss:13.0f}")
python = runs["python"]
for name in ("fetch", "prefetch"):
    speed = [p[0] / v[0] for v, p in zip(runs[name], python)]
    cpu = [v[1] / p[1] for v, p in zip(runs[name], python)]
    print(f"{name} / python: images/s ×{statistics.median(speed):.2f} ({min(speed):.2f}–{max(speed):.2f}), "
          f"CPU ×{statistics.median(cpu):.2f} ({min(cpu):.2f}–{max(cpu):.2f})")
PYTHON

if [ "${BIG:-0}" = 1 ]; then
    big=../shared/corpora/large-images/Kleiber_by_Lukas_Baubkus.jpg
    if [ -f "$big" ]; then
        cp "$big" "$work/www/big.jpg"
    else
        python3 -c "from PIL import Image; Image.effect_noise((6028, 3391), 40).convert('RGB').save('$work/www/big.jpg', quality=90)"
    fi
    seq 0 499 | sed "s|.*|http://127.0.0.1:$port/big/&.jpg|" > "$work/big.txt"
    : > "$work/results.txt"
    measure prefetch-20MP "$tool" prefetch --cache-dir "$work/cache" --from "$work/big.txt"
    measure fetch-20MP "$tool" fetch --json --cache-dir "$work/cache" --from "$work/big.txt"
    limit=$("$tool" cache info --json --cache-dir "$work/cache" | python3 -c "import json, sys; print(json.load(sys.stdin)['memoryLimit'])")
    echo "500 URLs of one 20 MP JPEG; the memory cache's limit: $((limit / 1048576)) MiB"
    while read -r name wall cpu rss; do
        echo "$name: ${wall} s, CPU ${cpu} s, peak RSS $((rss / 1024)) MiB"
    done < "$work/results.txt"
fi
