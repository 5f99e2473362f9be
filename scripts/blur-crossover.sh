#!/usr/bin/env bash
# The crossover between the integer mask and Deriche's filter (issue 41): compiles the
# blur's sources with stand-ins for the rest of the package (scripts/blur-crossover/)
# into one optimised program and prints the time per megapixel of both paths on a 6 MP
# opaque picture at sigma 0.5 to 14. Uses both cores, as the blur does.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
S=Sources
# The processing files import WebImageCore, whose parts are compiled into the same program
# here: their copies leave that import out.
for file in IntegerGaussianKernel Bitmap+GaussianBlur DericheCoefficients; do
    grep -v '^import WebImageCore$' "$S/WebImageProcessing/Filters/$file.swift" >"$work/$file.swift"
done
swiftc -O -package-name crossover -module-name BlurCrossover -o "$work/blur-crossover" \
    scripts/blur-crossover/Stubs.swift scripts/blur-crossover/main.swift \
    "$work/IntegerGaussianKernel.swift" "$work/Bitmap+GaussianBlur.swift" "$work/DericheCoefficients.swift" \
    $S/WebImageCore/Pixels/Bitmap+FloatRows.swift \
    $S/WebImageCore/Pixels/FloatPixelMemory.swift \
    $S/WebImageCore/Pixels/Array+ImageSized.swift \
    $S/WebImageCore/Pixels/ParallelRows.swift \
    $S/WebImageCore/Image/PixelFormat.swift
"$work/blur-crossover"
