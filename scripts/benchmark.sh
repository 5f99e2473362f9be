#!/usr/bin/env bash
# Runs the package-benchmark suites in Benchmarks/ (release build) and prints, for each
# measured subject, our p50 time next to its raw baseline's as a ratio.
# Extra arguments go to `swift package benchmark` (for example `--target CacheBenchmarks`).
# Needs ../shared/corpora beside the project for the real images it decodes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
output=$(mktemp)
trap 'rm -f "$output"' EXIT
(cd Benchmarks && swift package benchmark --no-progress --scale --time-units microseconds "$@") | tee "$output"
echo
python3 scripts/benchmark-ratios.py < "$output"
