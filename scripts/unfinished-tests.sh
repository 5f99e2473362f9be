#!/usr/bin/env bash
# Names the tests a `swift test` log shows as started but never passed, failed or skipped.
# Usage: scripts/unfinished-tests.sh LOG
set -euo pipefail
awk '
    / Test .* started\.$/ && !/Test case passing/ && !/Test run started/ {
        name = $0; sub(/^.* Test /, "", name); sub(/ started\.$/, "", name)
        running[name] = 1; next
    }
    / Test .* (passed|failed|skipped)/ && !/Test case passing/ && !/Test run with/ {
        name = $0; sub(/^.* Test /, "", name); sub(/ (passed|failed|skipped).*$/, "", name); sub(/ with [0-9]+ test cases?$/, "", name)
        delete running[name]
    }
    END { n = 0; for (name in running) { print "  " name; n++ }; if (n == 0) print "  (none)" }
' "$1"
