#!/bin/sh
# Coverage-guided fuzzing of the pack decoder or the string catalog with libFuzzer.
#
#   Tests/JuiceMakerReliabilityTests/Fuzz/fuzz.sh [packs|catalog] [seconds]
#
# Builds the fuzzed module's sources with the chosen entry point, over the modules it
# imports, under -sanitize=fuzzer,address into .build-fuzz/, seeds it with the shipped data and the
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
    module=JuiceMakerCatalog
    imports=
    seeds="$root/Recipes $here/../Corpus/packs"
    ;;
  catalog)
    entry=$here/CatalogFuzzer.swift
    module=JuiceMakerLocalization
    imports=JuiceMakerCatalog
    seeds="$root/Localization $here/../Corpus/catalogs $root/Tests/JuiceMakerKitTests/Fixtures/Localization/Xcode"
    ;;
  *)
    echo "usage: $0 [packs|catalog] [seconds]" >&2
    exit 64
    ;;
esac

mkdir -p "$work/corpus-$target" "$work/crashes-$target" "$work/modules-$target"
binary=$work/fuzz-$target
modules=$work/modules-$target
flags="-parse-as-library -package-name JuiceMaker -sanitize=fuzzer,address -g
  -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature MemberImportVisibility
  -enable-upcoming-feature InternalImportsByDefault"
# The C module the catalog's threads start with, as SwiftPM builds it: its module map is
# found under -I, and its object is linked in.
placement=$root/Sources/CThreadPlacement
clang -c -g -I "$placement/include" "$placement/placement.c" \
  -o "$modules/placement.o"
flags="$flags -I $placement/include"
# The modules the fuzzed one imports, each a static library; the entry point is compiled
# into the fuzzed module itself, so it sees the module's internals.
libraries=$modules/placement.o
for name in $imports; do
  # shellcheck disable=SC2046,SC2086
  swiftc -module-name "$name" $flags -I "$modules" -emit-library -static \
    -emit-module -emit-module-path "$modules/$name.swiftmodule" \
    $(find "$root/Sources/$name" -name '*.swift' | sort) -o "$modules/lib$name.a"
  libraries="$libraries $modules/lib$name.a"
done
# shellcheck disable=SC2046,SC2086
swiftc -module-name "$module" $flags -I "$modules" \
  $(find "$root/Sources/$module" -name '*.swift' | sort) "$entry" $libraries -o "$binary"

# shellcheck disable=SC2086
exec "$binary" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$work/crashes-$target/" "$work/corpus-$target" $seeds
