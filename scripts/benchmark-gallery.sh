#!/usr/bin/env bash
# The gallery playing animations against the same cells with every frame decoded.
#
# Makes GIFS animated GIFs (12 by default) of 500×500 pixels (FRAMES frames each, 120 by
# default, of FRAME_MS milliseconds, 40 by default: 25 frames a second) with Pillow, then
# runs in turn, RUNS times each (3 by default), under GNU time:
#   webimage gallery --full-size --play-for SECONDS …  (frames decoded as they play)
#   webimage gallery --full-size --no-animations --play-for SECONDS …  (every frame decoded;
#     skipped with FULL_DECODE=0)
# on a grid COLUMNS wide (4 by default; 12 GIFs make a 4 × 3 grid, 40 an 8 × 5 one with
# COLUMNS=8), and prints peak RSS, CPU time and, for playback, the frames shown and skipped,
# the most bytes of decoded frames held at once, and the CPU time per shown frame.
# FRAME_BUDGET=MIB plays within a frame budget of that many MiB (--frame-budget; the
# library's shared budget when not set). Needs `pip install Pillow` and a webimage build:
# WEBIMAGE=path (default: the release build, .build/release/webimage).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
frames=${FRAMES:-120}
gifs=${GIFS:-12}
frame_ms=${FRAME_MS:-40}
columns=${COLUMNS:-4}
rows=$(((gifs + columns - 1) / columns))
budget=()
[ -n "${FRAME_BUDGET:-}" ] && budget=(--frame-budget "$FRAME_BUDGET")
seconds=${SECONDS_PLAYED:-20}
runs=${RUNS:-3}
webimage=${WEBIMAGE:-.build/release/webimage}
[ -x "$webimage" ] || swift build -c release --product webimage
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" "$frames" "$gifs" "$frame_ms" <<'PYTHON'
import math, sys
from PIL import Image, ImageDraw
folder, frames, gifs, frame_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for gif in range(gifs):
    pictures = []
    for index in range(frames):
        picture = Image.new("RGB", (500, 500), (20 * gif % 256, 40, 90))
        draw = ImageDraw.Draw(picture)
        angle = 2 * math.pi * index / frames
        for ring in range(6):
            x = 250 + (60 + 30 * ring) * math.cos(angle * (ring + 1) + gif)
            y = 250 + (60 + 30 * ring) * math.sin(angle * (ring + 1) + gif)
            colour = ((gif * 37 + ring * 40) % 256, (index * 2 + ring * 60) % 256, 200)
            draw.ellipse((x - 40, y - 40, x + 40, y + 40), fill=colour)
        pictures.append(picture)
    pictures[0].save(f"{folder}/{gif:02d}.gif", save_all=True, append_images=pictures[1:], duration=frame_ms, loop=0)
PYTHON
ls "$work"/*.gif > "$work/list.txt"
echo "$gifs GIFs of 500×500 × $frames frames of $frame_ms ms: $(du -sh --apparent-size "$work" | cut -f1)"

measure() {
    local label=$1
    shift
    /usr/bin/time -v -o "$work/time.txt" "$webimage" gallery --from "$work/list.txt" --columns "$columns" --rows "$rows" \
        --full-size --play-for "$seconds" "$@" > "$work/out.txt"
    local rss cpu summary
    rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$work/time.txt")
    cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.2f", u + s}' "$work/time.txt")
    summary=$(tail -1 "$work/out.txt")
    echo "$label: peak RSS ${rss} MiB, CPU ${cpu} s; $summary"
    if [[ $summary =~ played\ ([0-9]+)\ animation ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]; then
        echo "    CPU per shown frame: $(python3 -c "print(f'{$cpu / ${BASH_REMATCH[1]} * 1000:.2f} ms')")"
    fi
}

for run in $(seq "$runs"); do
    echo "— run $run"
    measure "playing (frames on demand)" "${budget[@]}"
    [ "${FULL_DECODE:-1}" = 0 ] || measure "every frame decoded      " --no-animations
done
