#!/usr/bin/env bash
# `webimage serve` against thumbor, in turn on the same machine, with the same sources:
# 200 distinct JPEGs of 2 to 12 MP served by nginx on loopback, resized to 400 px wide WebP.
#
#   (b) cold: each server starts with empty caches and receives the 200 requests once, from
#       8 concurrent clients (scripts/bulk/cold-requests.py); requests/s, p99 latency and
#       the server's peak RSS (GNU time: thumbor's parent process alone), then beside it the
#       sum of every process's peak RSS (VmHWM; thumbor's parent and two workers).
#   (a) cached: the same 200 URLs again, now cached, for 10 s with wrk (2 threads, 32
#       connections, a Lua script cycling through the URLs); requests/s and p99 latency.
#       DURATION=S changes the 10 s.
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
# OURS_ONLY=1 runs our server alone (no thumbor needed; no ratios). COUNT=N (default 200)
# changes the number of sources. The parts shared with scripts/benchmark-formats.sh are in
# scripts/bulk/server-bench-lib.sh and scripts/bulk/server-ratios.py.
# Needs: a release build (`swift build -c release --product webimage`), nginx, wrk,
# GNU time, python3 with aiohttp and Pillow, and thumbor (`pip install thumbor`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bulk/server-bench-lib.sh
count=${COUNT:-200}

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
start_nginx
echo "$count sources, $(du -sh "$work/www" | cut -f1), from nginx on 127.0.0.1:$source_port" >&2

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

for run in $(seq "$runs"); do
    echo "run $run of $runs" >&2
    run_pair "$run" "$work/ours.txt" "$work/theirs.txt"
done

report_header
for run in $(seq "$runs"); do
    report "ours-$run" "webimage serve (run $run)"
    [ "$ours_only" = 1 ] || report "theirs-$run" "thumbor --processes 2 (run $run)"
done
[ "$ours_only" = 1 ] && exit 0
python3 scripts/bulk/server-ratios.py "$work/figures"
