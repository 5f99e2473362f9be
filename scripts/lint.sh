#!/usr/bin/env bash
# Checks the formatting of every Swift file against .swift-format (swift-format, shipped with
# the toolchain); `--strict` makes every finding an error. Fix findings with
# `swift format format -i -r Sources Tests Benchmarks Fuzz Package.swift Sanitizers/Package.swift`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --parallel -r Sources Tests Benchmarks Fuzz Package.swift Sanitizers/Package.swift
echo "lint passed" >&2
