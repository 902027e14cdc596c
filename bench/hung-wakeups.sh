#!/usr/bin/env bash
# Wake-ups a second of `sensorwatch run` on 12 thermal zones polled once a second, counted
# per thread: the sum of voluntary and involuntary context switches over every
# /proc/PID/task/*/status, at the start and the end of MEASURE seconds, once with every zone
# healthy and once with HUNG of them hung (their `temp` a FIFO nobody writes: a read that
# blocks, SPEC §8). Threads left in a hung read never wake again, so the two must agree
# (issue target: within ±0.5 a second). The per-thread count is the one to trust here: the
# rusage-differenced wakeups.sh can read below the one-a-second floor.
#
# env: SENSORWATCH (binary), ZONES (12), HUNG (4), MEASURE (20 s).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
SENSORWATCH=${SENSORWATCH:-$PWD/.build/release/sensorwatch}
ZONES=${ZONES:-12} HUNG=${HUNG:-4} MEASURE=${MEASURE:-20}
work=$(mktemp -d /tmp/sensorwatch-hung-wakeups.XXXXXX)
# The daemons keep their state.json here, not in the host's /var/lib/sensorwatch.
export STATE_DIRECTORY=$work
pid=
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

switches() { # PID: "TID COUNT" for every thread alive now (voluntary + involuntary switches)
    local t
    for t in /proc/"$1"/task/*; do
        awk -v tid="${t##*/}" '/^(voluntary|nonvoluntary)_ctxt_switches:/ { n += $2 } END { print tid, n }' "$t/status" 2>/dev/null || true
    done
}

# The switches between two `switches` listings: per thread, so a thread that ended between
# them (start-up helpers) takes nothing away; a thread that started counts from zero.
difference() { # BEFORE AFTER
    awk 'NR == FNR { before[$1] = $2; next } { n += $2 - ($1 in before ? before[$1] : 0) } END { print n }' "$1" "$2"
}

measure() { # NAME HUNG
    local dir=$work/zones-$2 i before after
    mkdir -p "$dir"
    write_thermal_zones "$dir" "$ZONES"
    for ((i = 0; i < $2; i++)); do rm "$dir/thermal_zone$i/temp"; mkfifo "$dir/thermal_zone$i/temp"; done
    cat >"$work/$2.json5" <<J
{ interval: "1s", sources: [ { type: "thermal", root: "$dir" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80 } ] }
J
    "$SENSORWATCH" run --config "$work/$2.json5" 2>"$work/$2.err" &
    pid=$!
    # Hung files are given up one after another, about 1.25 s each; then it settles.
    sleep $(( 3 + $2 * 2 ))
    switches "$pid" >"$work/before"
    sleep "$MEASURE"
    switches "$pid" >"$work/after"
    printf '%-14s %5.2f wake-ups/s  (%d threads; %d of %d zones hung)\n' "$1" \
        "$(awk -v n="$(difference "$work/before" "$work/after")" -v s="$MEASURE" 'BEGIN { print n / s }')" "$(ls /proc/"$pid"/task | wc -l)" "$2" "$ZONES"
    kill -TERM "$pid"
    wait "$pid" || true
    pid=
}

measure "all healthy" 0
measure "$HUNG hung" "$HUNG"
