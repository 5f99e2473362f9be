#!/usr/bin/env python3
"""Reads package-benchmark's text tables and prints, for each paired benchmark, the p50
times of the baseline and of ours and the p50 of their per-iteration ratio (ours /
baseline; below 1 is faster), with the ratio's p25-p75 spread.

Paired benchmarks (Benchmarks/Sources/BenchmarkSupport/PairedBenchmark.swift) are named
"<subject> · <ours> vs <baseline>" and record the metrics "baseline (ns)", "ours (ns)"
and "ours ÷ baseline (‰)"; package-benchmark scales large values and names the scale
after the metric, as in "ours (ns) (M)".
"""
import re
import sys

SCALES = {"#": 1, "K": 1e3, "M": 1e6, "G": 1e9}
ROW = re.compile(r"│ (baseline \(ns\)|ours \(ns\)|ours ÷ baseline \(‰\))(?: \((\S+)\))?\s*\*?\s*│(.*)")


def parse(lines):
    name, results = None, {}
    for line in lines:
        text = line.strip()
        if " · " in text and " vs " in text and not text.startswith(("│", "╒", "╞", "├", "╘")):
            name = text
            results[name] = {}
            continue
        match = ROW.match(text)
        if name and match:
            scale = SCALES.get(match.group(2) or "#", 1)
            cells = [float(cell.strip().replace(",", "")) * scale for cell in match.group(3).split("│")[:-1]]
            # cells: p0, p25, p50, p75, p90, p99, p100
            results[name][match.group(1)] = cells
    return results


def duration(nanoseconds):
    for unit, size in (("s", 1e9), ("ms", 1e6), ("μs", 1e3)):
        if nanoseconds >= 10 * size:
            return f"{nanoseconds / size:,.1f} {unit}"
    return f"{nanoseconds:,.0f} ns"


def main():
    print(f"{'subject':70} {'baseline p50':>13} {'ours p50':>13} {'ratio p50':>9} {'p25-p75':>11}")
    for name, rows in parse(sys.stdin).items():
        if len(rows) < 3:
            continue
        ratio = rows["ours ÷ baseline (‰)"]
        print(
            f"{name:70} {duration(rows['baseline (ns)'][2]):>13} {duration(rows['ours (ns)'][2]):>13}"
            f" {ratio[2] / 1000:9.2f} {ratio[1] / 1000:5.2f}-{ratio[3] / 1000:.2f}"
        )


if __name__ == "__main__":
    main()
