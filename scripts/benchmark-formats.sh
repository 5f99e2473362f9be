#!/usr/bin/env bash
# `webimage serve` against thumbor the way imgproxy publishes its benchmark: real photographs
# resized to fit in 512×512, each kept in its own format at quality 80, for JPEG, PNG, WebP and
# AVIF sources. The two servers run in turn on the same machine with the same sources.
#
# Sources: COUNT (default 40) distinct pictures of 1 to 6 MP, cut from different regions of
# ten photographs of ../shared/corpora (large-images/, sdwebimage/, ultrahdr-samples/; read
# in place, never copied into the project; /work/shared/corpora if ../shared/corpora is
# missing, CORPORA=DIR to name another) and scaled (Pillow, seeded), without ICC profile or
# EXIF, then saved in each format: JPEG q 90, PNG (default compression), WebP q 90, AVIF
# q 90. nginx serves each format's folder from loopback.
#
# For each FORMAT of FORMATS (default "jpeg png webp avif"): ours
# `resize=512x512,inside,noenlarge|format=FORMAT,q=80` (no q= for PNG), thumbor
# `/unsafe/fit-in/512x512/filters:format(FORMAT):quality(80)/` (no quality for PNG); thumbor's
# AVIF at libavif speed 8 (AVIF_SPEED), as ours encodes, not Pillow's default 6.
#   cold: each server starts with empty caches and receives the COUNT requests once, from 8
#       concurrent clients (scripts/bulk/cold-requests.py); requests/s, p99 latency, the
#       server's peak RSS (GNU time: thumbor's is its parent process's alone), the sum of
#       every process's peak RSS (VmHWM; thumbor's parent and two workers), and each
#       process's CPU seconds.
#   cached: the same URLs again, now cached, for DURATION (default 10) s with wrk (2 threads,
#       32 connections, a Lua script cycling through the URLs); requests/s and p99 latency.
# Each server is started for one format and stopped after it, so its peak RSS is that
# format's. thumbor runs with file storage and result storage on and --processes 2; a run
# where one of its workers took every connection is named (see scripts/benchmark-server.sh).
# After each cold phase the script checks the first URL's answer: 200, the format asked for
# (Content-Type and bytes) and 512 px on the longer side; it stops if not. Before the runs it
# asks thumbor for each format once (a 64 px result) and runs ours alone for a format thumbor
# does not answer in: without an AVIF codec in Pillow, thumbor answers 400 to an AVIF source
# (and JPEG when asked to write AVIF). thumbor 7.8 with Pillow 12 reads and writes AVIF.
# MODE=srcset asks, instead, for each source at 320, 640, 960 and 1280 px wide (never enlarged),
# as a responsive page's srcset does: the four sizes of one source one after another in the
# list the 8 clients share, so a source's sizes are asked for within moments of each other;
# ours `resize=W,inside,noenlarge|format=FORMAT,q=80`, thumbor
# `/unsafe/Wx0/filters:no_upscale():format(FORMAT):quality(80)/`; four requests a source.
# RUNS=N (default 3) repeats each format's pair in turn (ours, thumbor, ours, thumbor, ...),
# each on empty caches, prints every run, then each format's ratios (minimum, median, maximum)
# and a Markdown table, one row a format, for Benchmarks/README.md. OURS_ONLY=1 runs our
# server alone (no thumbor needed; no ratios). OURS_ARGS adds arguments, split on spaces, to
# our server's command line (e.g. OURS_ARGS="--decoded-source-memory 64M"); after each cold
# phase ours is asked for its /metrics, and the report gives, under each of its rows, the
# decoded-source tier's hits, misses and evictions in that phase.
#
#   WEBIMAGE=.build/release/webimage RUNS=3 scripts/benchmark-formats.sh
#   WEBIMAGE=.build/release/webimage RUNS=1 COUNT=6 DURATION=3 FORMATS=avif scripts/benchmark-formats.sh
#   WEBIMAGE=.build/release/webimage RUNS=1 COUNT=20 MODE=srcset scripts/benchmark-formats.sh
#
# Needs: a release build (`swift build -c release --product webimage`), the corpora, nginx,
# wrk, GNU time, python3 with aiohttp and Pillow with AVIF and WebP (Pillow 12 has AVIF built
# in), and thumbor (`pip install thumbor`; 7.8 reads and writes AVIF through Pillow's).
# Shares its server handling with scripts/benchmark-server.sh: scripts/bulk/server-bench-lib.sh
# and scripts/bulk/server-ratios.py.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=${CORPORA:-../shared/corpora}
[ -d "$corpora/large-images" ] || corpora=/work/shared/corpora
[ -d "$corpora/large-images" ] || { echo "needs the image corpora in ../shared/corpora (or CORPORA=DIR)" >&2; exit 1; }
corpora=$(cd "$corpora" && pwd)
declare -A extension=([jpeg]=jpg [png]=png [webp]=webp [avif]=avif)
read -r -a formats <<< "${FORMATS:-jpeg png webp avif}"
for format in "${formats[@]}"; do
    [ -n "${extension[$format]:-}" ] || { echo "FORMATS holds jpeg, png, webp and avif, not $format" >&2; exit 1; }
done
source scripts/bulk/server-bench-lib.sh
count=${COUNT:-40}
mode=${MODE:-fit}
[ "$mode" = fit ] || [ "$mode" = srcset ] || { echo "MODE is fit or srcset, not $mode" >&2; exit 1; }
srcset_widths=(320 640 960 1280)
thumbor_extra_conf="AVIF_SPEED = 8"

python3 - "$corpora" "$work/www" "$count" "${formats[@]}" <<'PYTHON'
import math, os, random, sys, time
import multiprocessing
from PIL import Image, ImageOps

corpora, folder, count, formats = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
# The corpora's photographs of at least 4 MP, not the flat Painting-Colors JPEG: a bird on a
# tree trunk, a photographed painting, an astronaut, a room, fire, a sunrise panorama, a city
# at night, a concert, a rocket launch seen on screens, a hand.
photos = [
    "large-images/Kleiber_by_Lukas_Baubkus.jpg",
    "large-images/Elephants_5640x3172.jpg",
    "sdwebimage/TestImageLarge.jpg",
    "sdwebimage/TestJFIF.jpg",
    "sdwebimage/TestHDR.jpeg",
    "ultrahdr-samples/gainmap-js/spruit_sunrise_4k.jpg",
    "ultrahdr-samples/vearutop-ultrahdr/uhdr.jpg",
    "ultrahdr-samples/vearutop-ultrahdr/old_acr.orig.jpg",
    "ultrahdr-samples/sharp/gain-map.jpg",
    "ultrahdr-samples/pillow/ultrahdr.jpg",
]
savers = {
    "jpeg": ("jpg", {"quality": 90}),
    "png": ("png", {}),
    "webp": ("webp", {"quality": 90}),
    "avif": ("avif", {"quality": 90}),
}


def upright_size(path):
    with Image.open(path) as image:
        width, height = image.size
        return (height, width) if image.getexif().get(0x0112, 1) in (5, 6, 7, 8) else (width, height)


# The plan is drawn in order from one seed: the same sources whatever the pool does.
random.seed(17)
sizes = {photo: upright_size(os.path.join(corpora, photo)) for photo in photos}
plans = []
for index in range(count):
    photo = photos[index % len(photos)]
    photo_width, photo_height = sizes[photo]
    aspect = random.choice([4 / 3, 3 / 2, 16 / 9, 1, 3 / 4, 2 / 3])
    width = math.sqrt(random.uniform(1, 6) * 1e6 * aspect)
    height = width / aspect
    shrink = min(1, photo_width / width, photo_height / height)
    width, height = int(width * shrink), int(height * shrink)
    scale = random.uniform(1, min(photo_width / width, photo_height / height))
    left = random.uniform(0, photo_width - width * scale)
    top = random.uniform(0, photo_height - height * scale)
    plans.append((index, photo, (width, height), (left, top, left + width * scale, top + height * scale)))

loaded = {}


def make(plan):
    index, photo, size, box = plan
    if photo not in loaded:
        loaded.clear()
        loaded[photo] = ImageOps.exif_transpose(Image.open(os.path.join(corpora, photo)).convert("RGB"))
    image = loaded[photo].resize(size, Image.Resampling.LANCZOS, box=box)
    image.info = {}
    for format in formats:
        suffix, options = savers[format]
        image.save(os.path.join(folder, format, f"{index}.{suffix}"), **options)
    return size[0] * size[1]


started = time.monotonic()
for format in formats:
    os.makedirs(os.path.join(folder, format))
# Each worker takes the plans of one photograph in a row, so decodes each photograph once.
plans.sort(key=lambda plan: photos.index(plan[1]))
with multiprocessing.get_context("fork").Pool(2) as pool:
    pixels = pool.map(make, plans, chunksize=max(1, math.ceil(count / len(photos))))
print(f"{count} sources of {min(pixels) / 1e6:.1f} to {max(pixels) / 1e6:.1f} MP "
      f"(median {sorted(pixels)[len(pixels) // 2] / 1e6:.1f}) from {min(count, len(photos))} photographs, "
      f"made in {time.monotonic() - started:.0f} s", file=sys.stderr)
PYTHON
start_nginx
for format in "${formats[@]}"; do
    echo "$format: $(du -sh "$work/www/$format" | cut -f1), from nginx on 127.0.0.1:$source_port/$format/" >&2
done

# Checks the answer to URL $1: 200, format $2 (Content-Type and bytes), $3 px on its longer side
# (wN: N px wide).
check_answer() {
    python3 - "$@" <<'PYTHON'
import io, sys, urllib.request
from PIL import Image
url, format, side = sys.argv[1], sys.argv[2], sys.argv[3]
with urllib.request.urlopen(url, timeout=120) as answer:
    kind, body = answer.headers.get_content_type(), answer.read()
image = Image.open(io.BytesIO(body))
print(f"{kind}, {image.format} {image.width}×{image.height}, {len(body)} bytes", end="")
measured, wanted = (image.width, int(side[1:])) if side.startswith("w") else (max(image.size), int(side))
if kind != f"image/{format}" or image.format != format.upper() or measured != wanted:
    print(f": expected image/{format}, {side} px")
    sys.exit(1)
print()
PYTHON
}
after_cold() {
    local format=${1#*-} side=512
    format=${format%-*}
    [ "$mode" = fit ] || side=w${srcset_widths[0]}
    echo -n "$1, first answer: " >&2
    check_answer "$(head -1 "$2")" "$format" "$side" >&2 || { echo "$1 did not answer $format at $side px" >&2; exit 1; }
}

# Which formats thumbor answers in, from a 64 px result of each format's first source.
thumbor_formats=()
notes=()
if [ "$ours_only" != 1 ]; then
    start_thumbor theirs-probe
    for format in "${formats[@]}"; do
        url="http://127.0.0.1:$theirs_port/unsafe/fit-in/64x64/filters:format($format)/127.0.0.1:$source_port/$format/0.${extension[$format]}"
        if answer=$(check_answer "$url" "$format" 64 2>&1); then
            thumbor_formats+=("$format")
        else
            notes+=("thumbor $(thumbor --version 2>&1 | head -1 | cut -d' ' -f2) does not answer $format for the $format sources here ($(echo "$answer" | tail -1)): ours ran alone for $format.")
            echo "${notes[-1]}" >&2
        fi
    done
    stop_server
fi

for format in "${formats[@]}"; do
    ours_spec=$(enc "resize=512x512,inside,noenlarge|format=$format,q=80")
    thumbor_filters="filters:format($format):quality(80)"
    if [ "$format" = png ]; then
        ours_spec=$(enc "resize=512x512,inside,noenlarge|format=png")
        thumbor_filters="filters:format(png)"
    fi
    : > "$work/ours-$format.txt"
    : > "$work/theirs-$format.txt"
    for index in $(seq 0 $((count - 1))); do
        source="127.0.0.1:$source_port/$format/$index.${extension[$format]}"
        if [ "$mode" = fit ]; then
            echo "http://127.0.0.1:$ours_port/_/$ours_spec/plain/$(enc "http://$source")" >> "$work/ours-$format.txt"
            echo "http://127.0.0.1:$theirs_port/unsafe/fit-in/512x512/$thumbor_filters/$source" >> "$work/theirs-$format.txt"
            continue
        fi
        for width in "${srcset_widths[@]}"; do
            ours_spec=$(enc "resize=$width,inside,noenlarge|format=$format,q=80")
            thumbor_filters="filters:no_upscale():format($format):quality(80)"
            if [ "$format" = png ]; then
                ours_spec=$(enc "resize=$width,inside,noenlarge|format=png")
                thumbor_filters="filters:no_upscale():format(png)"
            fi
            echo "http://127.0.0.1:$ours_port/_/$ours_spec/plain/$(enc "http://$source")" >> "$work/ours-$format.txt"
            echo "http://127.0.0.1:$theirs_port/unsafe/${width}x0/$thumbor_filters/$source" >> "$work/theirs-$format.txt"
        done
    done
    if [ "$mode" = fit ]; then
        echo "$format: ours /_/$ours_spec/plain/…, thumbor /unsafe/fit-in/512x512/$thumbor_filters/…" >&2
    else
        echo "$format: each source at ${srcset_widths[*]} px wide, ours /_/$ours_spec/plain/…, thumbor /unsafe/${srcset_widths[-1]}x0/$thumbor_filters/…" >&2
    fi
done

for run in $(seq "$runs"); do
    for format in "${formats[@]}"; do
        echo "run $run of $runs, $format" >&2
        theirs_list=
        if [[ " ${thumbor_formats[*]} " == *" $format "* ]]; then theirs_list="$work/theirs-$format.txt"; fi
        run_pair "$format-$run" "$work/ours-$format.txt" "$theirs_list"
    done
done

report_header
for format in "${formats[@]}"; do
    for run in $(seq "$runs"); do
        report "ours-$format-$run" "webimage serve, $format (run $run)"
        if [ -f "$work/theirs-$format-$run.cold" ]; then
            report "theirs-$format-$run" "thumbor, 2 processes, $format (run $run)"
        fi
    done
done
echo
if [ "$ours_only" != 1 ]; then
    python3 scripts/bulk/server-ratios.py "$work/figures"
    echo
fi
requests=$count
[ "$mode" = fit ] || requests=$((count * ${#srcset_widths[@]}))
python3 scripts/bulk/server-ratios.py "$work/figures" --table --requests "$requests"
for note in "${notes[@]}"; do echo; echo "$note"; done
