#!/usr/bin/env bash
# How `webimage fetch` scales with the number of URLs: runs it (release build) on 1,000,
# 4,000 and 16,000 distinct file URLs of one tiny PNG (hard links), given by --from and
# as command-line arguments, and prints the wall time and the time per URL of each run.
# Linear start-up shows as a steady time per URL. Extra arguments replace the counts.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
swift build -c release --product webimage >&2
tool="$(swift build -c release --show-bin-path)/webimage"
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 4000 16000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seed="$work/seed.png"
python3 - "$seed" <<'PYTHON'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
rows = b"".join(b"\x00" + b"\x20\x60\xa0\xff" * 2 for _ in range(2))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 6, 0, 0, 0)) \
    + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PYTHON

printf '%-8s %-10s %10s %14s\n' urls given seconds "µs per URL"
for count in "${counts[@]}"; do
    rm -rf "$work/images" "$work/cache"
    mkdir -p "$work/images"
    for ((index = 0; index < count; index++)); do ln "$seed" "$work/images/$index.png"; done
    find "$work/images" -name '*.png' | sort > "$work/list.txt"
    mapfile -t paths < "$work/list.txt"
    for given in from arguments; do
        if [ "$given" = from ]; then set -- --from "$work/list.txt"; else set -- "${paths[@]}"; fi
        start=$(date +%s.%N)
        "$tool" fetch --options cacheMemoryOnly --cache-dir "$work/cache" "$@" > /dev/null
        end=$(date +%s.%N)
        python3 -c "import sys; s = $end - $start; print(f'{$count:<8} {\"$given\":<10} {s:10.2f} {s / $count * 1e6:14.0f}')"
    done
done
