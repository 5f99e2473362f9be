#!/usr/bin/env bash
# Fuzzes each coder with libFuzzer (not part of CI): builds the targets of Fuzz/ with
# -sanitize=fuzzer,address and runs each for FUZZ_SECONDS (default 180), seeded from
# ../shared/corpora (files of the coder's extensions up to 256 KB).
#   scripts/fuzz.sh              # JPEG, PNG, GIF and WebP in turn
#   FUZZ_SECONDS=600 scripts/fuzz.sh GIF
# Inputs that crash, leak, time out or run out of memory are written to Fuzz/findings/;
# each becomes a regression test. The working corpora grow in Fuzz/.build/corpus-*.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
seconds=${FUZZ_SECONDS:-180}
coders=("$@")
[ ${#coders[@]} -gt 0 ] || coders=(JPEG PNG GIF WebP)
corpora=../shared/corpora

(cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
binaries=$(cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --show-bin-path)
mkdir -p Fuzz/findings

for coder in "${coders[@]}"; do
    case $coder in
        JPEG) patterns=(-iname '*.jpg' -o -iname '*.jpeg') ;;
        PNG) patterns=(-iname '*.png' -o -iname '*.apng') ;;
        GIF) patterns=(-iname '*.gif') ;;
        WebP) patterns=(-iname '*.webp') ;;
        *) echo "unknown coder $coder (JPEG, PNG, GIF or WebP)" >&2; exit 2 ;;
    esac
    seeds=Fuzz/.build/seeds-$coder
    work=Fuzz/.build/corpus-$coder
    rm -rf "$seeds"
    mkdir -p "$seeds" "$work"
    if [ -d "$corpora" ]; then
        # Named by a hash of their path: files of one name in different folders all count.
        find "$corpora" -type f \( "${patterns[@]}" \) -size -256k | while read -r file; do
            ln -sf "$(realpath "$file")" "$seeds/$(printf '%s' "$file" | md5sum | cut -c1-16)"
        done
    fi
    echo "== $coder: $(ls "$seeds" | wc -l) seeds, $seconds s"
    "$binaries/Fuzz$coder" "$work" "$seeds" \
        -max_total_time="$seconds" -max_len=262144 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="Fuzz/findings/$coder-" -print_final_stats=1 2>&1 | tail -n 25 || true
done
echo "findings: $(ls Fuzz/findings | wc -l) (in Fuzz/findings)"
