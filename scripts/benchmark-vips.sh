#!/usr/bin/env bash
# Whole-process comparison of `webimage convert --transform` with libvips' command-line
# tools on the jobs of issue 26, run in pairs (ours, vips, ours, vips, …) so both sides
# share the machine's load. For each job it prints the median over the pairs of the
# ratio ours ÷ vips of wall time, CPU time (user + system) and peak RSS (GNU time's
# %M), with the smallest and largest ratio as the spread. Below 1 is better for us.
#
#   fill      resize=400x300,fill → JPEG Q90   vs vipsthumbnail -s 400x300 --smartcrop centre
#   blur2     blur=2, full size → JPEG Q90     vs vips gaussblur … 2
#   blur10    blur=10, full size → JPEG Q90    vs vips gaussblur … 10
#   rot90     rotate=90, full size → JPEG Q90  vs vips rot … d90
#   chain     resize=400x300,fill|blur=2|format=webp,q=80
#                                              vs vipsthumbnail, then vips gaussblur to WebP Q80
#   png       8 MP PNG → 256 px thumbnail      vs vipsthumbnail -s 256
#   rot90-mcu rotate=90 of the photo cropped to whole 16×16 blocks (6016×3376), where
#             ours turns the JPEG without re-encoding
#
# The photo is the corpus's large-images/Kleiber_by_Lukas_Baubkus.jpg (6028×3391), or the
# JPEG given as the first argument. PAIRS (default 5) sets the pairs per job; JOBS (default
# all) names the jobs to run, separated by spaces (e.g. JOBS="blur2 blur10"). Installs
# libvips-tools and GNU time with apt when they are missing, and builds the tool in
# release mode unless WEBIMAGE names a build of it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v vips >/dev/null || [ ! -x /usr/bin/time ]; then
    apt-get install -y --no-install-recommends libvips-tools time >&2
fi
if [ -z "${WEBIMAGE:-}" ]; then
    swift build -c release --product webimage >&2
    WEBIMAGE="$(swift build -c release --show-bin-path)/webimage"
fi
tool=$WEBIMAGE
pairs=${PAIRS:-5}
jobs=" ${JOBS:-fill blur2 blur10 rot90 chain png rot90-mcu} "
photo=${1:-../shared/corpora/large-images/Kleiber_by_Lukas_Baubkus.jpg}
[ -f "$photo" ] || photo=/work/shared/corpora/large-images/Kleiber_by_Lukas_Baubkus.jpg
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp "$photo" "$work/photo.jpg"
vips thumbnail "$work/photo.jpg" "$work/eight.png" 3770 --height 3770
vips crop "$work/photo.jpg" "$work/aligned.jpg[Q=90]" 0 0 6016 3376
echo "photo: $(vipsheader "$work/photo.jpg"); PNG: $(vipsheader "$work/eight.png"); aligned: $(vipsheader "$work/aligned.jpg")"
results="$work/results.txt"

# One warm-up run of each side, then `pairs` pairs, each side timed by GNU time
# (through sh -c, whose %M is the largest RSS of any process it waited for).
compare() {
    local name=$1 ours=$2 theirs=$3
    case "$jobs" in *" $name "*) ;; *) return 0 ;; esac
    sh -c "$ours" >/dev/null 2>&1
    sh -c "$theirs" >/dev/null 2>&1
    for _ in $(seq "$pairs"); do
        for side in ours theirs; do
            local command=$ours
            [ "$side" = theirs ] && command=$theirs
            /usr/bin/time -f "%e %U %S %M" -o "$work/run.txt" sh -c "$command" >/dev/null 2>&1 \
                || { echo "failed: $command" >&2; exit 1; }
            echo "$name|$side|$(cat "$work/run.txt")" >>"$results"
        done
    done
}

in=$work/photo.jpg
compare fill "$tool convert $in $work/o1.jpg --transform 'resize=400x300,fill|format=jpeg,q=90'" \
    "vipsthumbnail $in -s 400x300 --smartcrop centre -o $work/v1.jpg[Q=90]"
compare blur2 "$tool convert $in $work/o2.jpg --transform 'blur=2|format=jpeg,q=90'" \
    "vips gaussblur $in $work/v2.jpg[Q=90] 2"
compare blur10 "$tool convert $in $work/o3.jpg --transform 'blur=10|format=jpeg,q=90'" \
    "vips gaussblur $in $work/v3.jpg[Q=90] 10"
compare rot90 "$tool convert $in $work/o4.jpg --transform 'rotate=90|format=jpeg,q=90'" \
    "vips rot $in $work/v4.jpg[Q=90] d90"
compare chain "$tool convert $in $work/o5.webp --transform 'resize=400x300,fill|blur=2|format=webp,q=80'" \
    "vipsthumbnail $in -s 400x300 --smartcrop centre -o $work/v5.v && vips gaussblur $work/v5.v $work/v5.webp[Q=80] 2"
compare png "$tool convert $work/eight.png $work/o6.jpg --thumbnail 256x256 --quality 90" \
    "vipsthumbnail $work/eight.png -s 256 -o $work/v6.jpg[Q=90]"
compare rot90-mcu "$tool convert $work/aligned.jpg $work/o7.jpg --transform 'rotate=90|format=jpeg,q=90'" \
    "vips rot $work/aligned.jpg $work/v7.jpg[Q=90] d90"

python3 - "$results" "$pairs" <<'SUMMARY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, side, figures = line.rstrip("\n").split("|")
    wall, user, system, kib = figures.split()
    rows.setdefault(name, {"ours": [], "theirs": []})[side].append(
        (float(wall), float(user) + float(system), int(kib) / 1024))
print("%d pairs per job; ours ÷ vips as median [smallest–largest] of the pairs' ratios" % int(sys.argv[2]))
print("%-10s %-24s %-24s %-24s %s" % ("job", "wall time", "CPU time", "peak RSS", "medians: ours / vips"))
for name, sides in rows.items():
    ours, theirs = sides["ours"], sides["theirs"]
    def cell(index):
        ratios = [a[index] / b[index] if b[index] > 0 else float("inf") for a, b in zip(ours, theirs)]
        return "%.2f× [%.2f–%.2f]" % (statistics.median(ratios), min(ratios), max(ratios))
    median = lambda runs, index: statistics.median(run[index] for run in runs)
    print("%-10s %-24s %-24s %-24s %.2f s %.0f MiB / %.2f s %.0f MiB" % (
        name, cell(0), cell(1), cell(2),
        median(ours, 0), median(ours, 2), median(theirs, 0), median(theirs, 2)))
SUMMARY
