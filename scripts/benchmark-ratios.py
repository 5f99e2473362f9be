#!/usr/bin/env python3
"""Reads package-benchmark's text tables and prints each subject's p50 wall-clock time
next to its baseline's, as a ratio (ours / baseline; below 1 is faster).

Benchmarks are named "<subject> · <implementation>"; within a subject, the
implementation whose name starts with "raw" or is "Dictionary" is the baseline.
"""
import re
import sys

UNITS = {"ns": 1e-3, "μs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}


def parse(lines):
    name, results = None, {}
    for line in lines:
        text = line.strip()
        if " · " in text and not text.startswith(("│", "╒", "╞", "├", "╘")):
            name = text
        match = re.match(r"│ Time \(wall clock\) \((\w+)\)\s*\*?\s*│(.*)", text)
        if name and match:
            cells = [cell.strip() for cell in match.group(2).split("│")]
            results[name] = float(cells[2].replace(",", "")) * UNITS.get(match.group(1), 1.0)
            name = None
    return results


def is_baseline(implementation):
    return implementation.startswith("raw") or implementation == "Dictionary"


def main():
    results = parse(sys.stdin)
    subjects = {}
    for name, micros in results.items():
        subject, implementation = name.split(" · ", 1)
        subjects.setdefault(subject, []).append((implementation, micros))
    print(f"{'subject':58} {'baseline p50':>14} {'ours p50':>12} {'ratio':>7}")
    for subject, entries in subjects.items():
        baselines = [entry for entry in entries if is_baseline(entry[0])]
        if not baselines:
            continue
        base_name, base = baselines[0]
        for implementation, micros in entries:
            if implementation == base_name:
                continue
            ratio = micros / base if base else float("nan")
            print(f"{subject + ' (' + implementation + ')':58} {base:12.2f}μs {micros:10.2f}μs {ratio:7.2f}")


if __name__ == "__main__":
    main()
