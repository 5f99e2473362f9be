#!/usr/bin/env bash
# Whole-process comparison of `webimage convert` with libvips (`vips copy`,
# `vipsthumbnail`) on a 20 MP JPEG: full-size JPEG → JPEG, JPEG → PNG (both writing
# filtered PNG at zlib level 6) and a 256 px thumbnail. Prints each pair's median time
# (hyperfine) and peak RSS (median of 5 runs of /usr/bin/time), and our ratio to vips.
#
# The input is made from the corpus photo large-images/Kleiber_by_Lukas_Baubkus.jpg
# (6028×3391, 20.4 MP) re-encoded by vips as a baseline JPEG at Q 90, or, without the
# corpora, from vips' Gaussian noise at the same size. Pass a JPEG path to use it instead.
# Needs a release build of the tool: `swift build -c release --product webimage`.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v vips >/dev/null || { echo "needs libvips-tools (apt-get install libvips-tools)" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
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

# Median peak RSS in MiB of five runs of the command.
peak_rss() {
    for _ in 1 2 3 4 5; do
        /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
    done | sort -n | sed -n 3p | awk '{printf "%.1f", $1 / 1024}'
}

# Median time in seconds of the command, from hyperfine.
median_time() {
    hyperfine --warmup 1 --runs 7 --style none --export-json "$work/time.json" "$1" >/dev/null
    python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/time.json"
}

compare() {
    local name=$1 ours=$2 theirs=$3
    local our_time their_time our_rss their_rss
    our_time=$(median_time "$ours")
    their_time=$(median_time "$theirs")
    # shellcheck disable=SC2086
    our_rss=$(peak_rss $ours)
    # shellcheck disable=SC2086
    their_rss=$(peak_rss $theirs)
    printf '%-14s  webimage %6.3f s %7.1f MiB   vips %6.3f s %7.1f MiB   time %.2f×  RSS %.2f×\n' \
        "$name" "$our_time" "$our_rss" "$their_time" "$their_rss" \
        "$(echo "$our_time / $their_time" | bc -l)" "$(echo "$our_rss / $their_rss" | bc -l)"
}

compare "JPEG → JPEG" "$tool convert $input $work/ours.jpg --quality 90" "vips copy $input $work/vips.jpg[Q=90]"
compare "JPEG → PNG" "$tool convert $input $work/ours.png" "vips copy $input $work/vips.png[filter=all,compression=6]"
compare "256 px thumb" "$tool convert $input $work/thumb.jpg --thumbnail 256x256 --quality 90" \
    "vipsthumbnail $input -s 256 -o $work/vips-thumb.jpg[Q=90]"
