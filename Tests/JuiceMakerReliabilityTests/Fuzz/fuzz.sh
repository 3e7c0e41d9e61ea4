#!/bin/sh
# Coverage-guided fuzzing of the pack decoder or the string catalog with libFuzzer.
#
#   Tests/JuiceMakerReliabilityTests/Fuzz/fuzz.sh [packs|catalog] [seconds]
#
# Builds the JuiceMakerKit sources with the chosen entry point under
# -sanitize=fuzzer,address into .build-fuzz/, seeds it with the shipped data and the
# corpus, and runs it for the given time (60 s by default). A crashing input is
# written to .build-fuzz/crashes-<target>/; add it to Tests/JuiceMakerReliabilityTests/
# Corpus as a case. Exits non-zero when libFuzzer finds a crash.
set -eu

target=${1:-packs}
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=${FUZZ_WORK:-$root/.build-fuzz}

case $target in
  packs)
    entry=$here/PackFuzzer.swift
    seeds="$root/Recipes $here/../Corpus/packs"
    ;;
  catalog)
    entry=$here/CatalogFuzzer.swift
    seeds="$root/Localization $here/../Corpus/catalogs $root/Tests/JuiceMakerKitTests/Fixtures/Localization/Xcode"
    ;;
  *)
    echo "usage: $0 [packs|catalog] [seconds]" >&2
    exit 64
    ;;
esac

mkdir -p "$work/corpus-$target" "$work/crashes-$target"
binary=$work/fuzz-$target
# shellcheck disable=SC2046
swiftc -parse-as-library -module-name JuiceMakerKit -package-name JuiceMaker \
  -sanitize=fuzzer,address -g \
  -enable-upcoming-feature ExistentialAny \
  -enable-upcoming-feature MemberImportVisibility \
  -enable-upcoming-feature InternalImportsByDefault \
  $(find "$root/Sources/JuiceMakerKit" -name '*.swift' | sort) "$entry" -o "$binary"

# shellcheck disable=SC2086
exec "$binary" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$work/crashes-$target/" "$work/corpus-$target" $seeds
