#!/usr/bin/env python3
"""libwebp's encoder methods compared by the bytes they need for equal quality and the CPU
they spend, on the photographs scripts/benchmark-formats.sh uses, at web sizes.

Each photograph of the corpora is scaled (Pillow, Lanczos) to fit in each of SIZES (default
640 and 1280 px on the longer side) and written as a PNG: the reference. Each method of
METHODS encodes every reference at each quality of QUALITIES with scripts/webp-encode.c, which
scripts/compare-webp-methods.sh builds against this project's libwebp (lossy, as the server's
WebPCoder writes it), ENCODES times, for the CPU an encode takes; Pillow decodes the result and
Butteraugli measures its distance to the reference. Equal quality, as in
scripts/encoder_comparison.py: the distance the server's setting (method 4 at quality 80)
reaches on each reference is the target.

Usage: scripts/compare-webp-methods.sh (it builds the encoder and names the corpora).
"""
import os
import statistics
import subprocess
import sys
import tempfile

from PIL import Image

from encoder_comparison import at_distance, butteraugli, references, spread

CORPORA = sys.argv[1]
ENCODER = os.environ["ENCODER"]
SIZES = [int(size) for size in os.environ.get("SIZES", "640 1280").split()]
QUALITIES = [int(quality) for quality in os.environ.get("QUALITIES", "60 70 75 80 85 90").split()]
METHODS = [int(method) for method in os.environ.get("METHODS", "0 2 3 4 5 6").split()]
ENCODES = int(os.environ.get("ENCODES", "5"))
CURRENT_METHOD, CURRENT_QUALITY = 4, 80


def raw_pixels(reference):
    """Writes `reference`'s pixels as raw RGBA beside it, once; returns (path, width, height)."""
    with Image.open(reference) as image:
        pixels = os.path.splitext(reference)[0] + ".rgba"
        with open(pixels, "wb") as file:
            file.write(image.convert("RGBA").tobytes())
        return pixels, image.width, image.height


def measure(folder, reference, pixels, method, quality):
    """Encodes one reference, whose raw RGBA `pixels` (path, width, height) the encoder reads;
    returns (bytes, distance, cpu seconds an encode)."""
    path, width, height = pixels
    encoded = os.path.join(folder, "candidate.webp")
    decoded = os.path.join(folder, "candidate.png")
    milliseconds = subprocess.run(
        [ENCODER, path, str(width), str(height), str(quality), str(method), str(ENCODES), encoded],
        check=True, capture_output=True, text=True,
    ).stdout.split()[0]
    with Image.open(encoded) as image:
        image.convert("RGB").save(decoded)
    return os.path.getsize(encoded), butteraugli(reference, decoded), float(milliseconds) / 1000


def main():
    with tempfile.TemporaryDirectory() as folder:
        made = references(CORPORA, SIZES, folder)
        print(f"{len(made)} references: {', '.join(name for name, _, _ in made)}", flush=True)
        pixels = {name: raw_pixels(path) for name, path, _ in made}
        results = {}
        for method in METHODS + ([CURRENT_METHOD] if CURRENT_METHOD not in METHODS else []):
            for name, path, _ in made:
                for quality in QUALITIES:
                    size, distance, cpu = measure(folder, path, pixels[name], method, quality)
                    results.setdefault(method, {}).setdefault(name, []).append((size, distance, cpu))
                    print(f"m{method} q{quality:>3} {name:32} {size:8d} B  distance {distance:6.3f}  cpu {cpu * 1000:7.2f} ms", flush=True)
        index = QUALITIES.index(CURRENT_QUALITY)
        targets = {name: results[CURRENT_METHOD][name][index] for name, _, _ in made}
        print()
        print("| method | bytes at equal distance (× method 4) | CPU at equal distance (× method 4) | CPU per MP (ms) | references reached |")
        print("|---|---|---|---|---|")
        for method in METHODS:
            sizes, cpus, per_megapixel = [], [], []
            for name, _, megapixels in made:
                base_size, base_distance, base_cpu = targets[name]
                found = at_distance(results[method][name], base_distance)
                if found is None:
                    continue
                sizes.append(found[0] / base_size)
                cpus.append(found[1] / base_cpu)
                per_megapixel.append(found[1] * 1000 / megapixels)
            median_cpu = f"{statistics.median(per_megapixel):.0f}" if per_megapixel else "–"
            print(f"| {method} | {spread(sizes)} | {spread(cpus)} | {median_cpu} | {len(sizes)} of {len(made)} |")


main()
