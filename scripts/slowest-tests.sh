#!/usr/bin/env bash
# Prints the COUNT slowest tests (25 by default) of a `swift test` log, slowest first, with
# their seconds as Swift Testing reported them, and the sum of every test's time.
# (It reads the whole sorted list rather than closing the pipe early: with `head`, `sort` could
# die of SIGPIPE on a long log and, under pipefail, fail the run with 141 after the tests passed.)
# Usage: scripts/slowest-tests.sh LOG [COUNT]
set -euo pipefail
awk '
    / Test .* (passed|failed) after [0-9.]+ seconds/ && !/Test run with/ {
        line = $0
        seconds = line; sub(/^.* after /, "", seconds); sub(/ seconds.*$/, "", seconds)
        name = line; sub(/^.* Test /, "", name); sub(/ (passed|failed) after .*$/, "", name)
        sub(/ with [0-9]+ test cases?$/, "", name)
        printf "%10.2f s  %s\n", seconds, name
        total += seconds; count++
    }
    END { printf "%10.2f s  the sum over %d tests (they run in parallel, so the wall time is less)\n", total, count > "/dev/stderr" }
' "$1" | sort -rn | awk -v count="${2:-25}" 'NR <= count'
