#!/usr/bin/env bash
# Which corpus files libvips decodes and we refuse (and the other way round), over the
# AVIF, HEIF, JPEG XL, TIFF, BMP and ICO folders of ../shared/corpora. A file counts as
# decoded by libvips when `vips avg` (which reads every pixel) succeeds, and by us when
# `webimage info` decodes it. Prints each disagreement with our error, then the counts.
#
#   scripts/compare-decoders-vips.sh               # every folder below
#   scripts/compare-decoders-vips.sh pillow-formats sharp-tiff
#
# Uses WEBIMAGE as the tool if set, else builds it (debug is enough).
set -uo pipefail
cd "$(dirname "$0")/.."
corpora=../shared/corpora
[ -d "$corpora" ] || { echo "needs $corpora" >&2; exit 1; }
command -v vips >/dev/null || { echo "needs libvips-tools (apt-get install libvips-tools)" >&2; exit 1; }
if [ -z "${WEBIMAGE:-}" ]; then
    swift build --product webimage >&2 || exit 1
    WEBIMAGE="$(swift build --show-bin-path)/webimage"
fi
folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=(av1-avif-testfiles link-u-avif-samples libavif-test-data mp4parse-avif libheif-data
    pillow-heif-images jxl-conformance jxl-rs-resources image-tiff-tests libtiff-test-images pillow-formats sharp-tiff
    image-rs-formats bmpsuite gdk-pixbuf-tests sdl-image-samples)
both=0 onlyVips=0 onlyOurs=0 neither=0
for folder in "${folders[@]}"; do
    while IFS= read -r -d '' file; do
        case "${file,,}" in
            *.avif | *.avifs | *.heic | *.heif | *.hif | *.jxl | *.tif | *.tiff | *.bmp | *.dib | *.ico | *.cur) ;;
            *) continue ;;
        esac
        timeout 60 vips avg "$file" >/dev/null 2>&1 && vipsDecodes=1 || vipsDecodes=0
        ours=$(timeout 60 "$WEBIMAGE" info "$file" 2>&1) && weDecode=1 || weDecode=0
        name=${file#"$corpora"/}
        case "$vipsDecodes$weDecode" in
            11) both=$((both + 1)) ;;
            00) neither=$((neither + 1)) ;;
            10) onlyVips=$((onlyVips + 1)); echo "libvips only: $name: $(echo "$ours" | tail -1)" ;;
            01) onlyOurs=$((onlyOurs + 1)); echo "ours only:    $name" ;;
        esac
    done < <(find "$corpora/$folder" -type f -print0 | sort -z)
done
echo "both decode: $both; neither: $neither; libvips only (we refuse): $onlyVips; ours only: $onlyOurs"
