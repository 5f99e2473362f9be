#!/usr/bin/env bash
# Compares the smart crop of `webimage convert --transform 'crop=WxH,smart'` with
# libvips' `vips smartcrop IN OUT W H --interesting attention` on photographs of the
# corpora: each photo is first reduced by vips to 512 px on its longer side (a PNG both
# sides read, so that the crops are exact copies of its pixels), the window is a square
# of 60 % of the shorter side, vips' window comes from the crop's offsets (the `.v` file
# keeps them) and ours is found by locating our crop inside the reduced photo. Prints
# the intersection-over-union of the two windows per photo and their mean.
#
# Needs libvips-tools, python3 with numpy, and a build of the tool (debug is fine:
# `swift build --product webimage`; or set WEBIMAGE). Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v vips >/dev/null || { echo "needs libvips-tools (apt-get install libvips-tools)" >&2; exit 1; }
tool=${WEBIMAGE:-$(swift build --product webimage --show-bin-path)/webimage}
[ -x "$tool" ] || { echo "build it first: swift build --product webimage" >&2; exit 1; }
corpora=../shared/corpora
photos=(
    image-png-benches/kodim02.png image-png-benches/kodim07.png image-png-benches/kodim17.png
    image-png-benches/kodim23.png large-images/Elephants_5640x3172.jpg large-images/Kleiber_by_Lukas_Baubkus.jpg
    large-images/Painting-Colors_by__herobrine7gamer.jpg image-webp-tests/images/gallery1/1.webp
    image-webp-tests/images/gallery1/2.webp image-webp-tests/images/gallery1/3.webp
    image-webp-tests/images/gallery1/4.webp image-webp-tests/images/gallery1/5.webp sdwebimage/TestImage.jpg
    sdwebimage/TestImageLarge.jpg exif-orientation-examples/Landscape_1.jpg wuffs-test-data/peacock.default.jpeg
    wuffs-test-data/harvesters.jpeg wuffs-test-data/hat.jpeg wuffs-test-data/hippopotamus.jpeg
    wuffs-test-data/hibiscus.regular.jpeg wuffs-test-data/bricks-color.jpeg libjpeg-turbo-testimages/testorig.jpg
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-55s %9s %11s %11s %6s\n' photo size vips ours IoU
for photo in "${photos[@]}"; do
    [ -f "$corpora/$photo" ] || { echo "missing $corpora/$photo" >&2; continue; }
    vips thumbnail "$corpora/$photo" "$work/base.png" 512 --size down
    vips extract_band "$work/base.png" "$work/rgb.png" 0 --n 3 2>/dev/null || cp "$work/base.png" "$work/rgb.png"
    width=$(vipsheader -f width "$work/rgb.png")
    height=$(vipsheader -f height "$work/rgb.png")
    side=$(( (width < height ? width : height) * 6 / 10 ))
    vips smartcrop "$work/rgb.png" "$work/vips.v" "$side" "$side" --interesting attention
    vipsx=$(( -$(vipsheader -f xoffset "$work/vips.v") ))
    vipsy=$(( -$(vipsheader -f yoffset "$work/vips.v") ))
    "$tool" convert "$work/rgb.png" "$work/ours.png" --transform "crop=${side}x${side},smart|format=png" >/dev/null
    vips copy "$work/rgb.png" "$work/base.ppm"
    vips copy "$work/ours.png" "$work/ours.ppm"
    python3 - "$work/base.ppm" "$work/ours.ppm" "$vipsx" "$vipsy" "$side" "$photo" "${width}x${height}" <<'PY'
import sys
import numpy as np

def ppm(path):
    data = open(path, "rb").read()
    fields, index = [], 0
    while len(fields) < 4:
        while data[index:index + 1].isspace():
            index += 1
        if data[index:index + 1] == b"#":
            index = data.index(b"\n", index)
            continue
        end = index
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[index:end])
        index = end
    width, height = int(fields[1]), int(fields[2])
    return np.frombuffer(data[index + 1:index + 1 + width * height * 3], np.uint8).reshape(height, width, 3)

base, crop = ppm(sys.argv[1]), ppm(sys.argv[2])
vx, vy, side = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
h, w = crop.shape[:2]
found = None
windows = np.lib.stride_tricks.sliding_window_view(base, (h, w, 3))[:, :, 0]
# Candidates whose first row matches, then the whole window.
first = np.lib.stride_tricks.sliding_window_view(base, (1, w, 3))[:, :, 0, 0]
for y, x in zip(*np.nonzero((first[: base.shape[0] - h + 1] == crop[0]).all(axis=(2, 3)))):
    if (windows[y, x] == crop).all():
        found = (int(x), int(y))
        break
if found is None:
    print(f"{sys.argv[6]:<55} our crop not found in the photo")
    sys.exit(0)
ox, oy = found
ix = max(0, min(vx, ox) + side - max(vx, ox))
iy = max(0, min(vy, oy) + side - max(vy, oy))
inter = ix * iy
iou = inter / (2 * side * side - inter)
print(f"{sys.argv[6]:<55} {sys.argv[7]:>9} {vx:>5},{vy:<5} {ox:>5},{oy:<5} {iou:6.3f}")
PY
done | tee "$work/table.txt"
awk '$NF ~ /^[0-9.]+$/ { sum += $NF; n += 1 } END { if (n) printf "mean IoU over %d photos: %.3f\n", n, sum / n }' "$work/table.txt"
