#!/usr/bin/env bash
# What malloc_trim on the rule loop costs: runs `sensorwatch run` on ZONES thermal zones at
# 100 ms for SECONDS with an LD_PRELOAD shim that times every malloc_trim(3) call (the rule
# loop trims every 10 s and after a backlog; it waits for the call), and prints the count,
# mean and longest call. env: SENSORWATCH, ZONES (1000), SECONDS_RUN (35). Needs cc.
set -euo pipefail
ZONES=${ZONES:-1000}
SECONDS_RUN=${SECONDS_RUN:-35}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
work=$(mktemp -d /tmp/sensorwatch-trim.XXXXXX)
# The daemons keep their state.json here, not in the host's /var/lib/sensorwatch.
export STATE_DIRECTORY=$work
trap 'rm -rf "$work"' EXIT
for ((i = 0; i < ZONES; i++)); do
    mkdir -p "$work/tree/thermal_zone$i"
    echo zone >"$work/tree/thermal_zone$i/type"
    echo $((40000 + (i % 50) * 1000)) >"$work/tree/thermal_zone$i/temp"
done
cat >"$work/c.json5" <<CONF
{ interval: "100ms", sources: [ { type: "thermal", root: "$work/tree" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80 } ] }
CONF
cc -O2 -shared -fPIC -o "$work/trim-timer.so" "$here/trim-timer.c" -ldl
cc -O2 -o "$work/rusage-run" "$here/rusage-run.c"
LD_PRELOAD=$work/trim-timer.so "$work/rusage-run" "$SECONDS_RUN" "$SENSORWATCH" run --config "$work/c.json5" \
    2>&1 >/dev/null | grep '^malloc_trim' || echo "malloc_trim: no call"
