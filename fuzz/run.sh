#!/usr/bin/env bash
# Builds the fuzz targets (fuzz/build.sh) and runs each, one after the other.
#   fuzz/run.sh [SECONDS]   fuzz each target for SECONDS (default 60) on its working corpus,
#                           .build/fuzz/corpus/<target>, seeded from fuzz/corpus/<target>
#                           and kept between runs; new inputs never go into the repository.
#   fuzz/run.sh --smoke     run each target once over its checked-in corpus (-runs=0),
#                           then fuzz it for 10 s on a fresh copy: what `make test` runs.
# A crash or a failed invariant leaves the input in .build/fuzz/artifacts/ and fails the run;
# the last line is always `fuzz: N passed, M failed`.
set -uo pipefail
cd "$(dirname "$0")/.."

TARGETS=(config scenario sysfs-value)
OUT=.build/fuzz
smoke=false
seconds=60
case "${1:-}" in
    --smoke) smoke=true ;;
    "") ;;
    *[!0-9]* | 0) echo "usage: fuzz/run.sh [SECONDS | --smoke]" >&2; exit 64 ;;
    *) seconds=$1 ;;
esac

fuzz/build.sh "${TARGETS[@]}" || { echo "fuzz: 0 passed, ${#TARGETS[@]} failed (build)"; exit 1; }
mkdir -p "$OUT/logs" "$OUT/artifacts"
# libFuzzer and ASan print the report; Swift's own backtracer would only repeat it, slowly.
export SWIFT_BACKTRACE=enable=no
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer || true)}
# A JSON5 parser may recurse once per nesting level; leave room for ASan's larger frames.
ulimit -s 65536 2>/dev/null || true

passed=0
failed=0
# Runs one libFuzzer invocation; its log goes to $log, its exit status is returned.
fuzz() {
    local target=$1; shift
    local dict=()
    [ -e "fuzz/dict/$target.dict" ] && dict=(-dict="fuzz/dict/$target.dict")
    "$OUT/$target" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 "${dict[@]}" \
        -artifact_prefix="$OUT/artifacts/$target-" "$@" >>"$log" 2>&1
}
for target in "${TARGETS[@]}"; do
    log=$OUT/logs/$target.log
    : >"$log"
    start=$(date +%s)
    if $smoke; then
        fresh=$OUT/smoke/$target
        rm -rf "$fresh" && mkdir -p "$fresh"
        # New inputs go into the first directory, never into fuzz/corpus.
        fuzz "$target" -runs=0 "$fresh" "fuzz/corpus/$target" \
            && cp fuzz/corpus/"$target"/* "$fresh"/ \
            && fuzz "$target" -max_total_time=10 "$fresh"
    else
        work=$OUT/corpus/$target
        mkdir -p "$work" && cp fuzz/corpus/"$target"/* "$work"/
        fuzz "$target" -max_total_time="$seconds" "$work"
    fi
    status=$?
    stats=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | tail -1 | awk '{print $2}')
    if [ "$status" -eq 0 ]; then
        passed=$((passed + 1))
        echo "fuzz: $target passed in $(($(date +%s) - start))s, ${execs:-?} runs; ${stats:-no DONE line}"
    else
        failed=$((failed + 1))
        echo "fuzz: $target FAILED (exit $status) after $(($(date +%s) - start))s; log $log:"
        grep -E 'invariant failed|ERROR: AddressSanitizer|ERROR: libFuzzer|Fatal error|SUMMARY|Test unit written|Base64' "$log" | head -20 | sed 's/^/  /'
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
