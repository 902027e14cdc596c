#!/usr/bin/env bash
# Builds the libFuzzer targets into .build/fuzz/<target>, instrumented for libFuzzer and
# AddressSanitizer, with warnings as errors. SensorRuntime, SensorCore, SensorConfig and
# SensorSysfs (every source under their Sources/ folders) are compiled once into static libraries with
# testing enabled and SwiftPM's package name, so the targets can `@testable import` internal
# parsers such as the CSV parser; each target is then its entry file plus
# fuzz/Support/*.swift, linked against them.
#   fuzz/build.sh [TARGET...]      default: every target (config scenario sysfs-value)
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFTC=${SWIFTC:-swiftc}
OUT=.build/fuzz
ALL_TARGETS=(config scenario sysfs-value)
targets=("${@:-${ALL_TARGETS[@]}}")
# lld: gold warns about every ASan helper symbol it cannot export.
FLAGS=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -warnings-as-errors -O -g
    -use-ld=lld -module-cache-path "$OUT/module-cache" -package-name sensorwatch
    # The upcoming features Package.swift enables, so imports mean what they mean there.
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
    -enable-upcoming-feature InternalImportsByDefault)

entry() {
    case "$1" in
        config) echo fuzz/ConfigFuzzTarget.swift ;;
        scenario) echo fuzz/ScenarioFuzzTarget.swift ;;
        sysfs-value) echo fuzz/SysfsValueFuzzTarget.swift ;;
        *) echo "fuzz/build.sh: unknown target $1 (known: ${ALL_TARGETS[*]})" >&2; return 1 ;;
    esac
}
for target in "${targets[@]}"; do entry "$target" >/dev/null; done

mkdir -p "$OUT/modules" "$OUT/cmodules"
# SensorRuntime imports the CLinux C target: give swiftc its module map (every header of its
# include/, as SwiftPM's umbrella directory) and link its objects.
cat >"$OUT/cmodules/module.modulemap" <<MAP
module CLinux {
    umbrella "$PWD/Sources/CLinux/include"
    export *
}
MAP
clinux=()
for c in Sources/CLinux/*.c; do
    o=$OUT/clinux-$(basename "$c" .c).o
    "${CC:-clang}" -O2 -fPIC -c "$c" -I Sources/CLinux/include -o "$o"
    clinux+=("$o")
done
FLAGS+=(-I "$OUT/cmodules")
# Each library is rebuilt only when one of its sources (or a library it imports) is newer.
library() {
    local module=$1 dir=$2; shift 2
    local sources
    mapfile -t sources < <(find "$dir" -name '*.swift' | sort)
    if [ ! -e "$OUT/lib$module.a" ] || [ -n "$(find "$dir" Sources/CLinux "$@" -newer "$OUT/lib$module.a")" ]; then
        local start=$(date +%s)
        "$SWIFTC" "${FLAGS[@]}" -enable-testing -module-name "$module" -emit-library -static \
            -I "$OUT/modules" -emit-module -emit-module-path "$OUT/modules/$module.swiftmodule" \
            -o "$OUT/lib$module.a" "${sources[@]}"
        echo "fuzz: built $OUT/lib$module.a in $(($(date +%s) - start))s"
    fi
}
library SensorRuntime Sources/SensorRuntime
library SensorCore Sources/SensorCore "$OUT/libSensorRuntime.a"
library SensorConfig Sources/SensorConfig "$OUT/libSensorCore.a"
library SensorSysfs Sources/SensorSysfs "$OUT/libSensorConfig.a"
for target in "${targets[@]}"; do
    start=$(date +%s)
    "$SWIFTC" "${FLAGS[@]}" -module-name "FuzzTarget" -I "$OUT/modules" -L "$OUT" -lSensorSysfs -lSensorConfig -lSensorCore -lSensorRuntime \
        -o "$OUT/$target" "$(entry "$target")" fuzz/Support/*.swift "${clinux[@]}"
    echo "fuzz: built $OUT/$target in $(($(date +%s) - start))s"
done
