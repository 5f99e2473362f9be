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
swiftc -O -package-name crossover -module-name BlurCrossover -o "$work/blur-crossover" \
    scripts/blur-crossover/Stubs.swift scripts/blur-crossover/main.swift \
    $S/WebImage/Transform/Filters/IntegerGaussianKernel.swift \
    $S/WebImage/Transform/Filters/Bitmap+GaussianBlur.swift \
    $S/WebImage/Transform/Filters/DericheCoefficients.swift \
    $S/WebImageCore/Pixels/Bitmap+FloatRows.swift \
    $S/WebImageCore/Pixels/FloatPixelMemory.swift \
    $S/WebImageCore/Pixels/Array+ImageSized.swift \
    $S/WebImageCore/Pixels/ParallelRows.swift \
    $S/WebImageCore/Image/PixelFormat.swift
"$work/blur-crossover"
