#!/usr/bin/env bash
# Installs what the build needs, then runs the tests that call C libraries under
# AddressSanitizer: WebImageCodecTests (every coder, the streaming converter, the colour
# tests), built by the Sanitizers/ package so that the HTTP stack is not built. Extra
# arguments go to `swift test` (for example `--filter LargeColorProfileTests`).
#
# Its own scratch path, .build-asan, so it shares nothing with the ThreadSanitizer build. The
# build is optimised (`-c release`, with `-enable-testing` for the tests' `@testable`
# imports): AddressSanitizer checks the optimised code's every load and store all the same,
# and the corpus suites, which decode some 5,000 files, ran in 83 s instead of 12–14 min
# unoptimised.
# The run (build included) has TEST_TIMEOUT seconds, 30 minutes by default; a run that
# outlives it is stopped, and the tests still running are named.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
# As in scripts/test.sh: a crash ends the run at once, with the sanitizer's report.
export SWIFT_BACKTRACE=enable=no
# Leak checking is off: LeakSanitizer reports memory kept until exit by XCTest, the test
# harness's arguments and x265's encoder (in libheif), none of it the project's. Reads and
# writes of freed memory, out of bounds, or into a stack frame that has returned are errors.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:detect_stack_use_after_return=1}"
log="$(mktemp -t webimage-test-asan-XXXXXX.log)"
trap 'rm -f "$log"' EXIT
status=0
timeout --kill-after=30 "${TEST_TIMEOUT:-1800}" \
    swift test --package-path Sanitizers --scratch-path .build-asan -c release -Xswiftc -enable-testing \
        --sanitize=address "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "The tests did not finish within ${TEST_TIMEOUT:-1800} s. Started and never ended:"
    scripts/unfinished-tests.sh "$log"
fi
echo "The 25 slowest tests under AddressSanitizer:"
scripts/slowest-tests.sh "$log" 25
exit "$status"
