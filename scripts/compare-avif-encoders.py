#!/usr/bin/env python3
"""libavif's three AV1 encoders (aom, rav1e, SVT-AV1) at several speeds, compared by the bytes
they need for equal quality and the CPU they spend, on the photographs scripts/benchmark-formats.sh
uses, at web sizes.

Each photograph of the corpora is scaled (Pillow, Lanczos) to fit in each of SIZES (default
512 and 1280 px on the longer side; each side rounded to even, as SVT-AV1 1.4 refuses an odd
side in 4:2:0) and written as a PNG: the reference. Each configuration
(codec, speed) encodes every reference at each quantizer of QUANTIZERS with avifenc as the
server's AVIFWriter does (4:2:0, full range, 8 bits, one thread, colour and alpha quantizer
equal); avifdec decodes it back and Butteraugli (Debian's `butteraugli`) measures the distance
to the reference. CPU is the encoder process's user + system time (resource usage of the
child, so the figure does not depend on what else the machine runs).

Equal quality: for each reference, the distance the server's current encoder (aom at speed 8,
quantizer 13, which is `q=80`) reaches is the target; each configuration's bytes and CPU at
that distance are interpolated between its two quantizers around it (log bytes, linear in
distance). The table gives, per configuration, the median over the references of its bytes
and CPU at the target relative to the current encoder, with the minimum and maximum, and the
median absolute CPU per megapixel.

Usage: scripts/compare-avif-encoders.sh (it checks the tools and names the corpora).
"""
import os
import statistics
import subprocess
import sys
import tempfile

from encoder_comparison import at_distance, butteraugli, child_cpu, references, spread

CORPORA = sys.argv[1]
SIZES = [int(size) for size in os.environ.get("SIZES", "512 1280").split()]
QUANTIZERS = [int(q) for q in os.environ.get("QUANTIZERS", "8 13 20 28 36 44").split()]
CONFIGURATIONS = [
    tuple(item.split(":"))
    for item in os.environ.get(
        "CONFIGURATIONS", "aom:6 aom:8 aom:9 aom:10 rav1e:8 rav1e:10 svt:8 svt:10"
    ).split()
]
CURRENT = ("aom", "8")
CURRENT_QUANTIZER = 13


def measure(folder, reference, codec, speed, quantizer):
    """Encodes one reference; returns (bytes, distance, cpu seconds)."""
    encoded = os.path.join(folder, "candidate.avif")
    decoded = os.path.join(folder, "candidate.png")
    cpu = child_cpu(
        ["avifenc", "-c", codec, "-s", speed, "-j", "1", "-y", "420", "-r", "full", "-d", "8",
         "--min", str(quantizer), "--max", str(quantizer), reference, encoded]
    )
    subprocess.run(["avifdec", encoded, decoded], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return os.path.getsize(encoded), butteraugli(reference, decoded), cpu


def main():
    with tempfile.TemporaryDirectory() as folder:
        made = references(CORPORA, SIZES, folder, even_sides=True)
        print(f"{len(made)} references: {', '.join(name for name, _, _ in made)}", flush=True)
        results = {}
        for codec, speed in CONFIGURATIONS:
            for name, path, megapixels in made:
                for quantizer in QUANTIZERS:
                    size, distance, cpu = measure(folder, path, codec, speed, quantizer)
                    results.setdefault((codec, speed), {}).setdefault(name, []).append((size, distance, cpu))
                    print(f"{codec:5} s{speed:>2} q{quantizer:>2} {name:32} {size:8d} B  distance {distance:6.3f}  cpu {cpu:6.3f} s", flush=True)
        current = results[CURRENT]
        targets = {}
        for name, _, _ in made:
            index = QUANTIZERS.index(CURRENT_QUANTIZER)
            targets[name] = current[name][index]
        print()
        print("| encoder | speed | bytes at equal distance (× aom 8) | CPU at equal distance (× aom 8) | CPU per MP (s) | references reached |")
        print("|---|---|---|---|---|---|")
        for codec, speed in CONFIGURATIONS:
            sizes, cpus, per_megapixel = [], [], []
            for name, _, megapixels in made:
                base_size, base_distance, base_cpu = targets[name]
                found = at_distance(results[(codec, speed)][name], base_distance)
                if found is None:
                    continue
                sizes.append(found[0] / base_size)
                cpus.append(found[1] / base_cpu)
                per_megapixel.append(found[1] / megapixels)

            median_cpu = f"{statistics.median(per_megapixel):.2f}" if per_megapixel else "–"
            print(f"| {codec} | {speed} | {spread(sizes)} | {spread(cpus)} | {median_cpu} | {len(sizes)} of {len(made)} |")


main()
