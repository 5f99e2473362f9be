#!/usr/bin/env bash
# Reads the gain maps `webimage convert` writes with other readers: every Ultra HDR sample of
# ../shared/corpora/ultrahdr-samples (the truncated one aside) is resized to 480 px wide and
# cropped and turned (`crop=300x200|rotate=90`); then Pillow's MPO reader follows each
# output's MPF index to its second image and prints the primary's size, the map's and their
# ratio (the source's own ratio, within a pixel or two), and headless Chromium decodes every
# output in a page and prints what it drew. Pillow opens an Ultra HDR file as a plain JPEG on
# purpose (its rule for files whose XMP announces `hdrgm`), so its MPO reader is called directly.
#
#   WEBIMAGE=.build/release/webimage PYTHON=/path/to/venv/bin/python scripts/check-ultrahdr.sh
#
# Needs: a `webimage` build, python3 with Pillow (PYTHON), chromium; the corpora.
set -euo pipefail
cd "$(dirname "$0")/.."
webimage=${WEBIMAGE:-.build/release/webimage}
python=${PYTHON:-python3}
corpora=${CORPORA:-../shared/corpora}
[ -d "$corpora/ultrahdr-samples" ] || { echo "needs ../shared/corpora/ultrahdr-samples (or CORPORA=DIR)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for source in "$corpora"/ultrahdr-samples/*/*.jpg; do
    case "$source" in *truncated*) continue ;; esac
    name=$(basename "$(dirname "$source")")-$(basename "$source" .jpg)
    "$webimage" convert "$source" "$work/$name-resize.jpg" --transform "resize=480" > /dev/null
    "$webimage" convert "$source" "$work/$name-crop-turn.jpg" --transform "crop=300x200|rotate=90" > /dev/null
done
echo "Pillow's MPO reader, at each output's MPF offsets:"
"$python" - "$work" <<'PYTHON'
import glob, os, sys
from PIL import JpegImagePlugin, MpoImagePlugin
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.jpg"))):
    image = JpegImagePlugin.JpegImageFile(path)
    try:
        index = image._getmp()
    except Exception:
        index = None
    name = os.path.basename(path)
    if not index:
        print(f"{name:58s} no MPF index (the source's map is not Ultra HDR's)")
        continue
    both = MpoImagePlugin.MpoImageFile.adopt(image, index)
    both.seek(0)
    both.load()
    primary = both.size
    both.seek(1)
    both.load()
    gain = both.size
    print(f"{name:58s} primary {primary[0]}x{primary[1]}, map {gain[0]}x{gain[1]} ({gain[0] / primary[0]:.3f}, {gain[1] / primary[1]:.3f})")
PYTHON
echo "Chromium, headless:"
"$python" - "$work" <<'PYTHON'
import glob, os, sys
folder = sys.argv[1]
images = "".join(f'<img src="{os.path.basename(p)}">' for p in sorted(glob.glob(os.path.join(folder, "*.jpg"))))
script = "onload=()=>{out.textContent=[...document.images].map(i=>i.src.split('/').pop()+' '+i.naturalWidth+'x'+i.naturalHeight).join('\\n')}"
open(os.path.join(folder, "page.html"), "w").write(f"<html><body>{images}<pre id=out></pre><script>{script}</script></body></html>")
PYTHON
timeout 120 chromium --headless --no-sandbox --disable-gpu --allow-file-access-from-files --virtual-time-budget=5000 \
    --dump-dom "file://$work/page.html" 2> /dev/null | sed -n '/<pre id="out">/,/<\/pre>/p' | sed 's/<\/pre>.*//; s/<[^>]*>//g'
