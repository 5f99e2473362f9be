#!/usr/bin/env bash
# Whole-process comparison of `webimage convert` with libvips (`vips copy`,
# `vipsthumbnail`) on a 20 MP JPEG: full-size JPEG → JPEG, JPEG → PNG (both writing
# filtered PNG at zlib level 6) and a 256 px thumbnail. Prints each side's median wall
# time, CPU time and peak RSS (GNU time) and the medians of the per-pair ratios.
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
# recording wall time, CPU time (user + system) and peak RSS of every run from GNU time:
# alternating keeps both sides under the same load from the machine's neighbours, and the
# CPU time is the figure to trust when the machine is oversubscribed (a process with more
# threads then gets more of the CPUs, whatever its work).
compare() {
    local name=$1 ours=$2 theirs=$3
    # shellcheck disable=SC2086
    { $ours; $theirs; } >/dev/null 2>&1
    for _ in $(seq "$runs"); do
        for side in ours theirs; do
            local command=$ours
            [ "$side" = theirs ] && command=$theirs
            # shellcheck disable=SC2086
            /usr/bin/time -f "%e %U %S %M" -o "$work/run.txt" $command >/dev/null 2>&1
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
    wall, user, system, kib = figures.split()
    rows.setdefault(name, {"ours": [], "theirs": []})[side].append(
        (float(wall), float(user) + float(system), int(kib) / 1024))
print("%-13s %28s   %28s   %s" % ("", "webimage: wall, CPU, peak RSS", "vips: wall, CPU, peak RSS", "ours ÷ vips: wall, CPU, RSS"))
for name, sides in rows.items():
    ours, theirs = sides["ours"], sides["theirs"]
    median = lambda runs, index: statistics.median(run[index] for run in runs)
    ratio = lambda index: statistics.median(a[index] / b[index] for a, b in zip(ours, theirs))
    print("%-13s %6.2f s %6.2f s %7.1f MiB   %6.2f s %6.2f s %7.1f MiB   %.2f× %.2f× %.2f×  (medians, %d alternating runs)" % (
        name, median(ours, 0), median(ours, 1), median(ours, 2),
        median(theirs, 0), median(theirs, 1), median(theirs, 2),
        ratio(0), ratio(1), ratio(2), len(ours)))
SUMMARY
