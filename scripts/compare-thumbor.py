"""thumbor 7.8 and `webimage serve --dialect thumbor` side by side on the same URLs.

Both servers run on loopback with the same security key; the sources are generated here
(a photograph-like JPEG, a PNG with transparency, a portrait PNG) and served by a small
HTTP server. Every case is a libthumbor CryptoURL call; each URL is fetched from both and
the answers compared: status, format, pixel size, and the pixels (mean absolute difference
over RGBA, 0 to 255, after both are decoded by Pillow) under the case's tolerance. Prints
one line per case and a table of the mismatches; exits 1 when there is one.

Run by scripts/compare-thumbor.sh, which says where thumbor and webimage are.
"""

import http.server
import io
import os
import random
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from libthumbor import CryptoURL
from PIL import Image, ImageChops, ImageDraw, ImageStat

KEY = "compare-thumbor-key"
# The default tolerance: thumbor resamples with Pillow's Lanczos, the server with its own
# filter, and both encode JPEG/WebP lossily, so identical geometry still differs a little.
TOLERANCE = 6.0


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_sources(folder):
    rng = random.Random(53)
    photo = Image.new("RGB", (300, 200))
    pixels = photo.load()
    for y in range(200):
        for x in range(300):
            pixels[x, y] = (x * 255 // 300, y * 255 // 200, (x + y) * 255 // 500)
    draw = ImageDraw.Draw(photo)
    for _ in range(12):
        x, y, r = rng.randrange(300), rng.randrange(200), rng.randrange(8, 40)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    photo.save(os.path.join(folder, "photo.jpg"), quality=92)
    alpha = Image.new("RGBA", (160, 120), (0, 0, 0, 0))
    draw = ImageDraw.Draw(alpha)
    draw.rectangle((20, 20, 140, 100), fill=(200, 40, 40, 255))
    draw.ellipse((50, 30, 110, 90), fill=(40, 40, 200, 160))
    alpha.save(os.path.join(folder, "alpha.png"))
    portrait = Image.new("RGB", (120, 180), (250, 250, 250))
    draw = ImageDraw.Draw(portrait)
    for index in range(6):
        draw.rectangle((10, 10 + index * 28, 110, 30 + index * 28), fill=(index * 40, 255 - index * 40, 128))
    portrait.save(os.path.join(folder, "portrait.png"))
    # A watermark: an opaque badge with a soft edge on a transparent ground.
    mark = Image.new("RGBA", (60, 40), (0, 0, 0, 0))
    draw = ImageDraw.Draw(mark)
    draw.rounded_rectangle((2, 2, 57, 37), radius=8, fill=(255, 255, 255, 255), outline=(20, 20, 20, 255), width=3)
    draw.text((12, 14), "wm", fill=(200, 0, 0, 255))
    mark.save(os.path.join(folder, "mark.png"))


def serve_folder(folder, port):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=folder, **kwargs)

        def log_message(self, *args):
            pass

    server = socketserver.ThreadingTCPServer(("127.0.0.1", port), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def wait_ready(url, process, name, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"{name} exited with {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    sys.exit(f"{name} did not answer {url} within {seconds} s")


def fetch(base, path):
    try:
        with urllib.request.urlopen(base + path, timeout=60) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


# The cases: a name, libthumbor's options (beside image_url), the sources, and the
# tolerance of the pixels' mean absolute difference when it is not TOLERANCE.
CASES = [
    ("resize", dict(width=150, height=100), ["photo.jpg", "portrait.png"], None),
    ("crop to box", dict(width=100, height=100), ["photo.jpg", "portrait.png", "alpha.png"], None),
    ("enlarge", dict(width=600, height=300), ["photo.jpg"], None),
    ("width only", dict(width=120), ["photo.jpg", "portrait.png"], None),
    ("height only", dict(height=90), ["photo.jpg", "alpha.png"], None),
    ("fit-in", dict(width=100, height=100, fit_in=True), ["photo.jpg", "portrait.png", "alpha.png"], None),
    ("fit-in larger", dict(width=800, height=800, fit_in=True), ["photo.jpg"], None),
    ("fit-in width", dict(width=90, fit_in=True), ["portrait.png"], None),
    ("full-fit-in", dict(width=100, height=100, full_fit_in=True), ["photo.jpg"], None),
    ("adaptive-fit-in", dict(width=100, height=200, adaptive_fit_in=True), ["photo.jpg"], None),
    ("flip h", dict(width=150, height=100, flip=True), ["photo.jpg"], None),
    ("flip v", dict(width=150, height=100, flop=True), ["photo.jpg"], None),
    ("flip both, no size", dict(flip=True, flop=True), ["portrait.png"], None),
    ("manual crop", dict(crop=((20, 10), (220, 160))), ["photo.jpg"], None),
    ("crop + resize", dict(crop=((20, 10), (220, 160)), width=100, height=50), ["photo.jpg"], None),
    ("align left top", dict(width=100, height=100, halign="left", valign="top"), ["photo.jpg"], None),
    ("align right", dict(width=100, height=100, halign="right"), ["photo.jpg"], None),
    ("align bottom", dict(width=100, height=50, valign="bottom"), ["portrait.png"], None),
    ("smart (no detectors)", dict(width=100, height=100, smart=True), ["photo.jpg"], None),
    ("trim", dict(trim=True), ["portrait.png"], None),
    ("orig", dict(width="orig", height="orig"), ["photo.jpg"], None),
    ("quality", dict(width=150, filters=["quality(40)"]), ["photo.jpg"], 8.0),
    ("format webp", dict(width=150, filters=["format(webp)"]), ["photo.jpg", "alpha.png"], None),
    ("format png", dict(width=150, filters=["format(png)"]), ["photo.jpg"], None),
    ("format jpeg", dict(width=150, filters=["format(jpeg)"]), ["portrait.png"], None),
    ("format gif", dict(width=100, filters=["format(gif)"]), ["portrait.png"], 12.0),
    # Pillow's grey is Rec. 601 luma, the server's Rec. 709.
    ("grayscale", dict(width=150, filters=["grayscale()"]), ["photo.jpg"], 10.0),
    ("blur", dict(width=150, filters=["blur(3)"]), ["photo.jpg"], 8.0),
    ("blur sigma", dict(width=150, filters=["blur(6,2)"]), ["photo.jpg"], 8.0),
    ("brightness", dict(width=150, filters=["brightness(30)"]), ["photo.jpg"], None),
    ("contrast", dict(width=150, filters=["contrast(40)"]), ["photo.jpg"], 8.0),
    ("saturation", dict(width=150, filters=["saturation(0.3)"]), ["photo.jpg"], 10.0),
    ("sharpen", dict(width=150, filters=["sharpen(2,1,true)"]), ["photo.jpg"], 12.0),
    ("rotate 90", dict(width=150, filters=["rotate(90)"]), ["photo.jpg"], None),
    ("rotate 270", dict(width=150, filters=["rotate(-90)"]), ["portrait.png"], None),
    ("round_corner", dict(width=150, height=100, filters=["round_corner(20,255,255,255)"]), ["photo.jpg"], 10.0),
    ("fill colour", dict(width=200, height=200, fit_in=True, filters=["fill(ff0000)"]), ["photo.jpg"], None),
    ("fill name", dict(width=200, height=200, fit_in=True, filters=["fill(blue)", "format(jpeg)"]), ["portrait.png"], None),
    ("fill auto", dict(width=200, height=200, fit_in=True, filters=["fill(auto)"]), ["photo.jpg"], None),
    ("fill blur", dict(width=200, height=200, fit_in=True, filters=["fill(blur)"]), ["photo.jpg", "portrait.png"], None),
    ("background_color", dict(width=100, filters=["background_color(00ff00)", "format(jpeg)"]), ["alpha.png"], 10.0),
    ("max_bytes", dict(width=200, filters=["max_bytes(4000)"]), ["photo.jpg"], 20.0),
    ("no_upscale", dict(width=600, height=300, filters=["no_upscale()"]), ["photo.jpg"], None),
    ("upscale fit-in", dict(width=600, height=600, fit_in=True, filters=["upscale()"]), ["photo.jpg"], None),
    ("stretch", dict(width=100, height=100, filters=["stretch()"]), ["photo.jpg"], None),
    ("proportion", dict(width=200, height=100, filters=["proportion(0.5)"]), ["photo.jpg"], None),
    ("strip_exif strip_icc", dict(width=150, filters=["strip_exif()", "strip_icc()"]), ["photo.jpg"], None),
    ("unknown filter", dict(width=150, filters=["nope(1)"]), ["photo.jpg"], None),
    ("rgb", dict(width=150, filters=["rgb(20,0,-20)"]), ["photo.jpg"], None),
    ("equalize", dict(width=150, filters=["equalize()"]), ["photo.jpg"], None),
    # Unseeded, thumbor draws from its process's running state; the server from the seed 1.
    ("noise", dict(width=150, filters=["noise(10)"]), ["photo.jpg"], 8.0),
    # Seeded: the same draws; written losslessly, so that only the resampling differs.
    ("noise seeded", dict(width=150, filters=["noise(10,53)", "format(png)"]), ["photo.jpg"], None),
    ("convolution", dict(width=150, filters=["convolution(1;2;1;2;4;2;1;2;1,3,true)"]), ["photo.jpg"], None),
    ("focal", dict(width=100, height=100, filters=["focal(200x50:260x110)"]), ["photo.jpg"], None),
    ("autojpg (not built in)", dict(filters=["autojpg()"]), ["portrait.png"], None),
    # Watermarks: {host} is the loopback server of the sources, which serves mark.png too.
    ("watermark corner", dict(width=150, filters=["watermark({host}/mark.png,10,10,50)"]), ["photo.jpg"], None),
    ("watermark from the end", dict(width=150, filters=["watermark({host}/mark.png,-10,-0,0)"]), ["photo.jpg", "alpha.png"], None),
    ("watermark center", dict(width=150, filters=["watermark({host}/mark.png,center,center,30)"]), ["photo.jpg"], None),
    ("watermark percent", dict(width=150, filters=["watermark({host}/mark.png,20p,-10p,0)"]), ["photo.jpg"], None),
    ("watermark repeat", dict(width=200, filters=["watermark({host}/mark.png,repeat,repeat,40)"]), ["photo.jpg"], None),
    ("watermark repeat x", dict(width=200, filters=["watermark({host}/mark.png,repeat,-0,0)", "format(png)"]), ["photo.jpg"], None),
    ("watermark width ratio", dict(width=200, filters=["watermark({host}/mark.png,-0,-0,0,40,none)"]), ["photo.jpg"], None),
    ("watermark height ratio", dict(width=200, filters=["watermark({host}/mark.png,0,0,20,none,50)"]), ["portrait.png"], None),
    ("watermark both ratios", dict(width=200, filters=["watermark({host}/mark.png,center,center,0,30,30)"]), ["photo.jpg"], None),
    ("watermark then blur", dict(width=150, filters=["watermark({host}/mark.png,10,10,0)", "blur(2)"]), ["photo.jpg"], 8.0),
    ("watermark missing", dict(width=150, filters=["watermark({host}/nothing.png,10,10,0)"]), ["photo.jpg"], None),
    ("missing source", dict(width=100), ["missing.jpg"], None),
]


def main():
    thumbor_bin, webimage_bin = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="compare-thumbor-")
    folder = os.path.join(work, "www")
    os.makedirs(folder)
    make_sources(folder)
    source_port, thumbor_port, ours_port = free_port(), free_port(), free_port()
    files = serve_folder(folder, source_port)
    conf = os.path.join(work, "thumbor.conf")
    with open(conf, "w") as handle:
        handle.write(f"SECURITY_KEY = '{KEY}'\nALLOW_UNSAFE_URL = True\nQUALITY = 80\n")
        handle.write(f"FILE_STORAGE_ROOT_PATH = '{work}/storage'\n")
    thumbor = subprocess.Popen(
        [thumbor_bin, "--port", str(thumbor_port), "--ip", "127.0.0.1", "--conf", conf, "-l", "error"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "thumbor.log"), "w"))
    ours = subprocess.Popen(
        [webimage_bin, "serve", "--dialect", "thumbor", "--thumbor-config", conf, "--port", str(ours_port),
         "--allow-private-sources", "--cache-dir", os.path.join(work, "cache")],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "webimage.log"), "w"))
    try:
        wait_ready(f"http://127.0.0.1:{thumbor_port}/healthcheck", thumbor, "thumbor")
        wait_ready(f"http://127.0.0.1:{ours_port}/health", ours, "webimage serve")
        crypto = CryptoURL(key=KEY)
        rows, mismatches = [], []
        for name, options, sources, tolerance in CASES:
            tolerance = TOLERANCE if tolerance is None else tolerance
            for source in sources:
                host = f"127.0.0.1:{source_port}"
                filled = dict(options)
                if "filters" in filled:
                    filled["filters"] = [text.replace("{host}", host) for text in filled["filters"]]
                path = crypto.generate(image_url=f"{host}/{source}", **filled)
                theirs = fetch(f"http://127.0.0.1:{thumbor_port}", path)
                mine = fetch(f"http://127.0.0.1:{ours_port}", path)
                problems = compare(theirs, mine, tolerance)
                row = (name, source, theirs, mine, problems, tolerance)
                rows.append(row)
                if problems:
                    mismatches.append(row)
                print(line(row), flush=True)
        print()
        print(f"{len(rows)} URLs, {len(rows) - len(mismatches)} match, {len(mismatches)} mismatch (key {KEY!r}, thumbor {thumbor_version(thumbor_bin)})")
        if mismatches:
            print()
            print("| case | source | thumbor | webimage | mismatch |")
            print("|---|---|---|---|---|")
            for row in mismatches:
                name, source, theirs, mine, problems, _ = row
                print(f"| {name} | {source} | {summary(theirs)} | {summary(mine)} | {'; '.join(problems)} |")
        return 1 if mismatches else 0
    finally:
        for process in (thumbor, ours):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        files.shutdown()


def thumbor_version(binary):
    try:
        return subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout.split()[1]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "?"


def decode(body):
    try:
        image = Image.open(io.BytesIO(body))
        image.load()
        return image
    except Exception:  # noqa: BLE001 - any body that is not an image
        return None


def summary(answer):
    status, content_type, body = answer
    image = decode(body) if status == 200 else None
    if image is None:
        return f"{status}"
    return f"{status} {image.format.lower()} {image.size[0]}x{image.size[1]}"


def compare(theirs, mine, tolerance):
    problems = []
    if theirs[0] != mine[0]:
        problems.append(f"status {theirs[0]} vs {mine[0]}")
        return problems
    if theirs[0] != 200:
        return problems
    a, b = decode(theirs[2]), decode(mine[2])
    if a is None or b is None:
        return ["an answer is not an image"]
    if a.format != b.format:
        problems.append(f"format {a.format} vs {b.format}")
    if a.size != b.size:
        problems.append(f"size {a.size[0]}x{a.size[1]} vs {b.size[0]}x{b.size[1]}")
        return problems
    difference = mean_difference(a, b)
    if difference > tolerance:
        problems.append(f"pixels differ by {difference:.1f} > {tolerance:g}")
    return problems


def mean_difference(a, b):
    a, b = a.convert("RGBA"), b.convert("RGBA")
    # Fully transparent pixels have no colour to compare.
    black = Image.new("RGBA", a.size, (0, 0, 0, 0))
    a = Image.composite(a, black, a.getchannel("A").point(lambda v: 255 if v else 0))
    b = Image.composite(b, black, b.getchannel("A").point(lambda v: 255 if v else 0))
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 4


def line(row):
    name, source, theirs, mine, problems, tolerance = row
    verdict = "ok" if not problems else "MISMATCH: " + "; ".join(problems)
    detail = ""
    if not problems and theirs[0] == 200:
        a, b = decode(theirs[2]), decode(mine[2])
        if a is not None and b is not None and a.size == b.size:
            detail = f" (pixels {mean_difference(a, b):.1f} <= {tolerance:g})"
    return f"{name:24} {source:13} thumbor {summary(theirs):22} webimage {summary(mine):22} {verdict}{detail}"


if __name__ == "__main__":
    sys.exit(main())
