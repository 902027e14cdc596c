#!/usr/bin/env bash
# What the executor's donation buys (issue 22 item 3): `run` built as shipped, where a poll
# thread runs its commit and the rule loop's turn as the DaemonActor itself
# (DaemonExecutor.donate), against the same source built with -DSENSORWATCH_NO_DONATION,
# where the poll thread hands the commit to the executor's own thread and waits for it (as a
# queue's `sync` would). Wake-ups a second counted per thread at 12 thermal zones / 1 s, and
# CPU per sample (wait4 rusage of a SHORT and a LONG run, differenced) at ZONES_BIG / 100 ms,
# the two builds in interleaved rounds.
#
# env: SENSORWATCH (the shipped build), NO_DONATION (the other; built here when absent, into
# /tmp/sensorwatch-nodonation), ROUNDS (3), SHORT (3 s), LONG (23 s), ZONES_BIG (1000).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
ROUNDS=${ROUNDS:-3}
SHORT=${SHORT:-3}
LONG=${LONG:-23}
ZONES_BIG=${ZONES_BIG:-1000}
if [ -z "${NO_DONATION:-}" ]; then
    (cd "$here/.." && swift build -c release --static-swift-stdlib --disable-local-rpath \
        -Xswiftc -DSENSORWATCH_NO_DONATION --build-path /tmp/sensorwatch-nodonation >&2)
    NO_DONATION=/tmp/sensorwatch-nodonation/release/sensorwatch
fi
command -v cc >/dev/null || { echo "bench: needs a C compiler (cc)" >&2; exit 1; }
work=$(mktemp -d "${BENCH_TMPFS:-/dev/shm}/sensorwatch-donation.XXXXXX")
# The daemons keep their state.json here, not in the host's /var/lib/sensorwatch.
export STATE_DIRECTORY=$work
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
cc -O2 -o "$work/rusage-run" "$here/rusage-run.c"
mkdir -p "$work/small" "$work/big"
write_thermal_zones "$work/small" 12
write_thermal_zones "$work/big" "$ZONES_BIG"
for size in small big; do
    interval=1s; [ "$size" = big ] && interval=100ms
    cat >"$work/$size.json5" <<CONF
{ interval: "$interval",
  sources: [ { type: "thermal", root: "$work/$size" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80 } ] }
CONF
done
samples_per_s=$((ZONES_BIG * 10))
echo "bench: donation against none; wake-ups per thread at 12 zones / 1 s; CPU per sample at $ZONES_BIG zones / 100 ms; $ROUNDS round(s)"
printf '%-6s %-16s %14s %10s %16s\n' round build "wake-ups/s" threads "µs CPU/sample"
for round in $(seq 1 "$ROUNDS"); do
    for build in donation none; do
        bin=$SENSORWATCH; [ "$build" = none ] && bin=$NO_DONATION
        read -r vol _ threads < <(thread_switches 5 30 "$bin" run --config "$work/small.json5")
        read -r _ cpu _ _ < <(per_second "$bin" run --config "$work/big.json5")
        awk -v r="$round" -v b="$build" -v w="$vol" -v t="$threads" -v c="$cpu" -v n="$samples_per_s" \
            'BEGIN { printf "%-6s %-16s %14s %10s %16.3f\n", r, b, w, t, c / n }'
    done
done
