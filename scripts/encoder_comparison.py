"""What scripts/compare-avif-encoders.py and scripts/compare-webp-methods.py share: the
references they encode, Butteraugli's distance, a child process's CPU, and a measurement
interpolated to a target distance.

Both compare encoder settings the same way: each setting encodes every reference at several
qualities; the distance the server's current setting reaches at its default quality is the
target on each reference; each setting's bytes and CPU at that distance are interpolated
between its two qualities around it (log bytes, linear in distance).
"""
import math
import os
import resource
import statistics
import subprocess

from PIL import Image

# The photographs scripts/benchmark-formats.sh cuts its sources from, in the corpora.
PHOTOS = [
    "large-images/Kleiber_by_Lukas_Baubkus.jpg",
    "large-images/Elephants_5640x3172.jpg",
    "sdwebimage/TestImageLarge.jpg",
    "sdwebimage/TestJFIF.jpg",
    "ultrahdr-samples/gainmap-js/spruit_sunrise_4k.jpg",
    "ultrahdr-samples/vearutop-ultrahdr/uhdr.jpg",
]


def child_cpu(command):
    """Runs `command` and returns the user + system seconds it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def butteraugli(reference, candidate):
    """Butteraugli's distance between two PNGs."""
    output = subprocess.run(["butteraugli", reference, candidate], check=True, capture_output=True, text=True).stdout
    return float(output.split()[0])


def references(corpora, sizes, folder, even_sides=False):
    """Writes each of PHOTOS scaled (Pillow, Lanczos) to fit each of `sizes` on its longer
    side as a PNG in `folder`, each side rounded to even with `even_sides`; returns
    (name, path, megapixels) for each."""
    made = []
    for photo in PHOTOS:
        with Image.open(os.path.join(corpora, photo)) as source:
            source = source.convert("RGB")
            for size in sizes:
                scale = size / max(source.size)
                if even_sides:
                    width, height = 2 * round(source.width * scale / 2), 2 * round(source.height * scale / 2)
                else:
                    width, height = round(source.width * scale), round(source.height * scale)
                path = os.path.join(folder, f"{os.path.basename(photo).split('.')[0]}-{size}.png")
                source.resize((width, height), Image.LANCZOS).save(path)
                made.append((os.path.basename(path), path, width * height / 1e6))
    return made


def at_distance(points, target):
    """(bytes, cpu) at `target` distance, interpolated between the measured
    (bytes, distance, cpu) points around it (log bytes, linear cpu); None when the points
    do not reach it."""
    points = sorted(points, key=lambda point: point[1])
    for low, high in zip(points, points[1:]):
        if low[1] <= target <= high[1]:
            share = 0 if high[1] == low[1] else (target - low[1]) / (high[1] - low[1])
            size = math.exp(math.log(low[0]) + share * (math.log(high[0]) - math.log(low[0])))
            return size, low[2] + share * (high[2] - low[2])
    return None


def spread(values):
    """The median of `values` with their range, as the tables print it."""
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})" if values else "–"
