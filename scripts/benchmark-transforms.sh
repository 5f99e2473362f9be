#!/usr/bin/env bash
# Whole-process comparison of `webimage convert --transform` with libvips' own command-line
# tool, same input, same output size and JPEG quality, timed by hyperfine in one session:
#   resize: a 20 MP JPEG to 800 px wide (`vips thumbnail`, which, like us, shrinks the
#           JPEG while decoding it and finishes with Lanczos-3)
#   blur:   a Gaussian blur of sigma 8 over a 6 MP JPEG (`vips gaussblur`)
# Prints each median wall-clock ratio (ours ÷ vips; below 1 is faster) with its p25–p75
# spread over the runs paired in order, and the ratio of mean CPU time (user + system),
# which a busy machine disturbs less. Needs libvips-tools and hyperfine (apt) and builds release.
# The 20 MP photo is the corpus's when ../shared/corpora is present, else vips paints one.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
for tool in vips hyperfine python3; do
    command -v "$tool" >/dev/null || { echo "error: $tool is missing (apt-get install libvips-tools hyperfine)" >&2; exit 1; }
done
scripts/install-system-packages.sh
swift build -c release --product webimage >&2
webimage="$(swift build -c release --show-bin-path)/webimage"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

photo=../shared/corpora/large-images/Kleiber_by_Lukas_Baubkus.jpg
if [ ! -f "$photo" ]; then
    photo="$work/photo.jpg"
    vips perlin "$work/noise.v" 6028 3391 --cell-size 96
    vips linear "$work/noise.v" "$work/scaled.v" 120 128 --uchar
    vips bandjoin "$work/scaled.v $work/scaled.v $work/scaled.v" "$work/rgb.v"
    vips copy "$work/rgb.v" "$photo[Q=90]"
fi
six="$work/six-megapixels.jpg"
vips thumbnail "$photo" "$six[Q=90]" 3266 --height 3266
vipsheader "$photo" "$six" >&2

hyperfine --style basic --warmup 3 --runs "$runs" --export-json "$work/resize.json" \
    -n "vips thumbnail" "vips thumbnail $photo $work/vips-resize.jpg[Q=85] 800 --height 100000" \
    -n "webimage convert" "$webimage convert $photo $work/ours-resize.jpg --transform 'resize=800|format=jpeg,q=85'" >&2
hyperfine --style basic --warmup 3 --runs "$runs" --export-json "$work/blur.json" \
    -n "vips gaussblur" "vips gaussblur $six $work/vips-blur.jpg[Q=85] 8" \
    -n "webimage convert" "$webimage convert $six $work/ours-blur.jpg --transform 'blur=8|format=jpeg,q=85'" >&2
vipsheader "$work/vips-resize.jpg" "$work/ours-resize.jpg" "$work/vips-blur.jpg" "$work/ours-blur.jpg" >&2

python3 - "$work/resize.json" "$work/blur.json" <<'PYTHON'
import json, statistics, sys

def quantile(values, q):
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

for label, path in (("resize 20 MP JPEG to 800 px wide", sys.argv[1]), ("Gaussian blur sigma 8, 6 MP JPEG", sys.argv[2])):
    vips, ours = json.load(open(path))["results"]
    ratios = [o / v for o, v in zip(ours["times"], vips["times"])]
    cpu = lambda result: result["user"] + result["system"]
    print(f"{label}: vips {statistics.median(vips['times']) * 1000:.0f} ms, "
          f"webimage {statistics.median(ours['times']) * 1000:.0f} ms, "
          f"ratio {statistics.median(ratios):.2f}× (p25–p75 {quantile(ratios, 0.25):.2f}–{quantile(ratios, 0.75):.2f}); "
          f"CPU time (user + system, mean) vips {cpu(vips) * 1000:.0f} ms, webimage {cpu(ours) * 1000:.0f} ms, "
          f"ratio {cpu(ours) / cpu(vips):.2f}×")
PYTHON
