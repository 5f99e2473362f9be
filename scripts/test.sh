#!/usr/bin/env bash
# Installs what the build needs, then runs the whole test suite: every test under
# ThreadSanitizer, then the tests that call C libraries (the codec and colour tests, the
# corpora among them) under AddressSanitizer with scripts/test-asan.sh. The corpus suites
# run only in the second: see `Corpus.skippedUnderThreadSanitizer`. Extra arguments go to
# `swift test` (for example `--filter DiskCacheTests`), and then only the first run is made.
# After each run it prints the 25 slowest tests (`scripts/slowest-tests.sh LOG` does the same
# for any saved `swift test` output).
#
# The run (build included) has TEST_TIMEOUT seconds, 75 minutes by default (CI allows 90 for
# this and the checks after it); it took 31 from a clean clone on two cores in CI's last
# run, and the same VM has run at half that speed. A run that outlives it is stopped, and the tests
# still running are named, so a hang fails with its culprit instead of silently.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
# Under ThreadSanitizer, Swift's crash backtracer once hung on a crashed test process (it
# could not suspend its threads) and held the output open until the timeout; without it a
# crash ends the run at once, still printing the runtime's fatal-error message.
export SWIFT_BACKTRACE=enable=no
# ThreadSanitizer sleeps a second in every process's exit (`atexit_sleep_ms`, 1,000 by
# default) to give threads still running a chance to race with the exit handlers. The
# suite starts hundreds of `webimage` and stress-tool processes (80 in one race test
# alone, four at a time), many one after another, so that second cost minutes. Races
# with exit handlers are a narrow class no test here aims at; every race while a process
# runs is still reported.
# scripts/tsan-suppressions.txt names the dependency frames whose reports are not races, each
# with its reason.
export TSAN_OPTIONS="${TSAN_OPTIONS:-atexit_sleep_ms=0 suppressions=$PWD/scripts/tsan-suppressions.txt}"
log="$(mktemp -t webimage-test-XXXXXX.log)"
trap 'rm -f "$log"' EXIT
status=0
timeout --kill-after=30 "${TEST_TIMEOUT:-4500}" \
    swift test $(scripts/test-build-flags.sh) "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "The tests did not finish within ${TEST_TIMEOUT:-4500} s. Started and never ended:"
    scripts/unfinished-tests.sh "$log"
fi
echo "The 25 slowest tests under ThreadSanitizer:"
scripts/slowest-tests.sh "$log" 25
if [ "$status" -eq 0 ] && [ "$#" -eq 0 ]; then
    scripts/test-asan.sh || status=$?
fi
exit "$status"
