#!/usr/bin/env bash
# The time from a thermal zone's directory appearing to its first reading (SPEC §20: within
# 2 s at an interval of 1 s), over TRIALS trials, and from its going to its `gone`: 12 zones
# polled every second, one more renamed into the class directory (whole, as sysfs adds a
# device), read hot so its first reading is a `firing` line on stderr, then renamed out
# (its alert resolves as gone). Each trial starts at a random point of the poll interval.
#
# Method: the time of the rename to the moment the line is in the daemon's stderr, polled
# every 2 ms by this script (so the figures include up to ~2 ms of the script's own lag).
#
# env: SENSORWATCH (binary), TRIALS (20), ZONES (12).
set -euo pipefail
TRIALS=${TRIALS:-20}
ZONES=${ZONES:-12}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
work=$(mktemp -d /tmp/sensorwatch-appear.XXXXXX)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
mkdir -p "$work/tree" "$work/out/thermal_zone99"
write_thermal_zones "$work/tree" "$ZONES"
echo plug >"$work/out/thermal_zone99/type"
echo 90000 >"$work/out/thermal_zone99/temp"
cat >"$work/sensorwatch.json5" <<CONF
{ interval: "1s",
  sources: [ { type: "thermal", root: "$work/tree" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80 } ] }
CONF
# Run where no journald listens: the events are then stderr lines (with one, they would go
# to the journal instead).
STATE_DIRECTORY=$work "$SENSORWATCH" run --config "$work/sensorwatch.json5" 2>"$work/stderr" &
pid=$!
now_ns() { date +%s%N; }
count() { grep -c -- "$1" "$work/stderr" || true; }
# Milliseconds until the Nth line with TEXT.
until_line() { # T0_NS TEXT N
    while [ "$(count "$2")" -lt "$3" ]; do
        kill -0 "$pid" 2>/dev/null || { echo "bench: the daemon died: $(cat "$work/stderr")" >&2; exit 1; }
        sleep 0.002
    done
    echo $(( ($(now_ns) - $1) / 1000000 ))
}
sleep 1.5
: >"$work/appear.ms"
: >"$work/gone.ms"
for ((i = 1; i <= TRIALS; i++)); do
    sleep "0.$(printf '%03d' $((RANDOM % 1000)))"
    t0=$(now_ns)
    mv "$work/out/thermal_zone99" "$work/tree/thermal_zone99"
    until_line "$t0" "hot firing: thermal:plug" "$i" >>"$work/appear.ms"
    sleep "0.$(printf '%03d' $((RANDOM % 1000)))"
    t0=$(now_ns)
    mv "$work/tree/thermal_zone99" "$work/out/thermal_zone99"
    until_line "$t0" "hot resolved: thermal:plug (plug) sensor gone" "$i" >>"$work/gone.ms"
done
summary() { # NAME FILE
    printf '%-34s p50 %5s ms   max %5s ms   (%d trials)\n' "$1" "$(median_of <"$2")" "$(sort -n "$2" | tail -n 1)" "$(grep -c . "$2")"
}
echo "bench: $ZONES thermal zones + 1 at 1 s, rename into / out of the class directory"
summary "appeared → first reading" "$work/appear.ms"
summary "went → resolved as gone" "$work/gone.ms"
