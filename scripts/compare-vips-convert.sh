#!/usr/bin/env bash
# Whole-process comparison of `webimage convert` with libvips (`vips copy`,
# `vipsthumbnail`) on a 20 MP JPEG: full-size JPEG → JPEG, JPEG → PNG (both writing
# filtered PNG at zlib level 6) and a 256 px thumbnail. Prints each side's median wall
# time and peak RSS (GNU time) and the median of the per-pair ratios.
#
# The input is made from the corpus photo large-images/Kleiber_by_Lukas_Baubkus.jpg
# (6028×3391, 20.4 MP) re-encoded by vips as a baseline JPEG at Q 90, or, without the
# corpora, from vips' Gaussian noise at the same size. Pass a JPEG path to use it instead.
# Needs a release build of the tool: `swift build -c release --product webimage` (or set
# WEBIMAGE to another build of it). RUNS (default 5) sets the runs per command.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v vips >/dev/null || { echo "needs libvips-tools (apt-get install libvips-tools)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
tool=${WEBIMAGE:-$(swift build -c release --product webimage --show-bin-path)/webimage}
[ -x "$tool" ] || { echo "build it first: swift build -c release --product webimage" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
input="$work/in.jpg"
if [ $# -ge 1 ]; then
    cp "$1" "$input"
elif [ -f ../shared/corpora/large-images/Kleiber_by_Lukas_Baubkus.jpg ]; then
    vips copy ../shared/corpora/large-images/Kleiber_by_Lukas_Baubkus.jpg "$input[Q=90,strip]"
else
    vips gaussnoise "$work/noise.v" 6028 3391 --mean 128 --sigma 40
    vips bandjoin "$work/noise.v $work/noise.v $work/noise.v" "$input[Q=90,strip]"
fi
echo "input: $(vipsheader "$input"), $(stat -c %s "$input") bytes"

runs=${RUNS:-5}
results="$work/results.txt"

# Runs our command and vips' alternately, `runs` times each after one warm-up of each,
# recording wall time and peak RSS of every run from GNU time: alternating keeps both
# sides under the same load from the machine's neighbours.
compare() {
    local name=$1 ours=$2 theirs=$3
    # shellcheck disable=SC2086
    { $ours; $theirs; } >/dev/null 2>&1
    for _ in $(seq "$runs"); do
        for side in ours theirs; do
            local command=$ours
            [ "$side" = theirs ] && command=$theirs
            # shellcheck disable=SC2086
            /usr/bin/time -f "%e %M" -o "$work/run.txt" $command >/dev/null 2>&1
            echo "$name|$side|$(cat "$work/run.txt")" >>"$results"
        done
    done
}

compare "JPEG → JPEG" "$tool convert $input $work/ours.jpg --quality 90" "vips copy $input $work/vips.jpg[Q=90]"
compare "JPEG → PNG" "$tool convert $input $work/ours.png" "vips copy $input $work/vips.png[filter=all,compression=6]"
compare "256 px thumb" "$tool convert $input $work/thumb.jpg --thumbnail 256x256 --quality 90" \
    "vipsthumbnail $input -s 256 -o $work/vips-thumb.jpg[Q=90]"

python3 - "$results" <<'SUMMARY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, side, figures = line.rstrip("\n").split("|")
    seconds, kib = figures.split()
    rows.setdefault(name, {"ours": [], "theirs": []})[side].append((float(seconds), int(kib) / 1024))
for name, sides in rows.items():
    ours, theirs = sides["ours"], sides["theirs"]
    time_ratios = [a[0] / b[0] for a, b in zip(ours, theirs)]
    rss_ratios = [a[1] / b[1] for a, b in zip(ours, theirs)]
    print("%-13s webimage %6.2f s %6.1f MiB   vips %6.2f s %6.1f MiB   time %.2f×  RSS %.2f×  (medians of %d alternating runs)" % (
        name,
        statistics.median(t for t, _ in ours), statistics.median(m for _, m in ours),
        statistics.median(t for t, _ in theirs), statistics.median(m for _, m in theirs),
        statistics.median(time_ratios), statistics.median(rss_ratios), len(ours)))
SUMMARY
