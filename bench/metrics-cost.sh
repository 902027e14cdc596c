#!/usr/bin/env bash
# Cost of the Prometheus textfile (SPEC §12): `sensorwatch run` on 1000 fake thermal zones
# every 100 ms (bench/load.sh's set-up) without `metrics`, and with the file written every
# second. In each round the two variants run at the same time, so that the other load of a
# shared machine falls on both alike (the one started first alternates): run one after the
# other, rounds differed by ±15 % on a busy 2-core machine. Each reads its own copy of the
# zones (a mount namespace of its own): two processes reading the same files at once bounce
# the page cache's reference counts between the cores, which made rounds differ as much. CPU = the process's CPU clock (clock_gettime of its CLOCK_PROCESS_CPUTIME
# id, which counts threads that have exited, unlike /proc/PID/task/*/schedstat) over
# MEASURE seconds after WARMUP; CPU per sample = that / (zones × MEASURE / interval).
# Requirement: CPU per sample with metrics is at most 5 % above the figure without.
#
# env: SENSORWATCH (binary), ZONES (1000), ROUNDS (5), MEASURE (20 s), WARMUP (3 s), LIMIT (1.05)
# exit: 0 requirement met, 1 missed or the daemon died, 2 set-up problem.
set -euo pipefail
ZONES=${ZONES:-1000}
ROUNDS=${ROUNDS:-5}
MEASURE=${MEASURE:-20}
WARMUP=${WARMUP:-3}
LIMIT=${LIMIT:-1.05}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
export ZONES ROUNDS MEASURE WARMUP LIMIT SENSORWATCH

if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "metrics-cost: needs root (unshare -m, mount)" >&2; exit 2; }
    [ -x "$SENSORWATCH" ] || { echo "metrics-cost: no binary at $SENSORWATCH (make release)" >&2; exit 2; }
    command -v python3 >/dev/null || { echo "metrics-cost: needs python3" >&2; exit 2; }
    exec unshare -m --propagation private -- bash "$0" --inside
fi

# ---- inside the private mount namespace: nothing mounted here is seen outside ----
mount -t tmpfs none /run
work=$(mktemp -d /tmp/sensorwatch-metrics-cost.XXXXXX)
pids=()
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
trap cleanup_bench EXIT

# The file goes where the unit's RuntimeDirectory puts it: a tmpfs (on ext4 a rename over a
# file flushes the new one's data first, which is not what runs in production).
textfiles=/run/sensorwatch
mkdir -p "$work/tree" "$textfiles" "$work/state"
mount -t tmpfs -o size=64m tmpfs "$work/tree"
mkdir "$work/tree/plain" "$work/tree/metrics"
write_thermal_zones "$work/tree/plain" "$ZONES"
write_thermal_zones "$work/tree/metrics" "$ZONES"
mount --bind "$work/tree/metrics" /sys/class/thermal

config() { # FILE [METRICS-LINE]
    cat >"$1" <<CONF
{
  interval: "100ms",
  sources: [ { type: "thermal" } ],
  rules: [ { name: "bench-hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
  $2
}
CONF
}
config "$work/plain.json5" ""
config "$work/metrics.json5" "metrics: { textfile: \"$textfiles/sensorwatch.prom\", interval: \"${METRICS_INTERVAL:-1s}\" },"

# One round: both configurations at once; sets p and m to the CPU nanoseconds of MEASURE
# seconds after WARMUP of the run without and with metrics.
measure_pair() { # FIRST-CONFIG SECOND-CONFIG
    local spids=() c
    for c in "$1" "$2"; do
        local name=${c##*/}
        name=${name%.json5}
        mkdir -p "$work/state-$name"
        STATE_DIRECTORY=$work/state-$name unshare -m --propagation private -- \
            bash -c 'mount --bind "$1" /sys/class/thermal && exec "$2" run --config "$3"' _ \
            "$work/tree/$name" "$SENSORWATCH" "$c" >"$work/out-$name.txt" 2>&1 &
        spids+=($!)
        pids+=($!)
    done
    sleep "$WARMUP"
    for c in 0 1; do
        kill -0 "${spids[$c]}" 2>/dev/null || { echo "metrics-cost: sensorwatch died:" >&2; tail -n 5 "$work"/out-*.txt >&2; exit 1; }
    done
    local ns
    ns=$(python3 - "$MEASURE" "${spids[@]}" <<'PY'
import sys, time
# A process's CPU clock id: MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) of the kernel.
clocks = [((~int(p)) << 3) | 2 for p in sys.argv[2:]]
a = [time.clock_gettime_ns(c) for c in clocks]
time.sleep(float(sys.argv[1]))
b = [time.clock_gettime_ns(c) for c in clocks]
print(*(y - x for x, y in zip(a, b)))
PY
)
    kill -TERM "${spids[@]}"
    wait "${spids[@]}" || true
    read -r first second <<<"$ns"
    if [ "$1" = "$work/plain.json5" ]; then p=$first m=$second; else m=$first p=$second; fi
}

samples=$((ZONES * MEASURE * 10))
plain=() with=()
echo "metrics-cost: $ZONES zones @ 100ms, $ROUNDS rounds of ${MEASURE} s both ways at once (after ${WARMUP} s warm-up), file every ${METRICS_INTERVAL:-1s}"
printf '%-6s %22s %22s %7s\n' round "without: CPU/sample" "with metrics" ratio
for ((r = 1; r <= ROUNDS; r++)); do
    if ((r % 2)); then
        measure_pair "$work/plain.json5" "$work/metrics.json5"
    else
        measure_pair "$work/metrics.json5" "$work/plain.json5"
    fi
    # The file was written, and removed at the stop.
    [ ! -e "$textfiles/sensorwatch.prom" ] || { echo "metrics-cost: file left after stop" >&2; exit 1; }
    plain+=("$p"); with+=("$m")
    awk -v p="$p" -v m="$m" -v n="$samples" -v r="$r" \
        'BEGIN { printf "%-6s %19.3f µs %19.3f µs %7.3f\n", r, p / n / 1000, m / n / 1000, m / p }'
done
# One run more with the file kept, to show its size.
STATE_DIRECTORY=$work/state "$SENSORWATCH" run --config "$work/metrics.json5" >"$work/out.txt" 2>&1 &
spid=$!; pids+=("$spid")
for ((i = 0; i < 50; i++)); do [ -s "$textfiles/sensorwatch.prom" ] && break; sleep 0.1; done
lines=$(grep -c . "$textfiles/sensorwatch.prom" || true)
bytes=$(stat -c %s "$textfiles/sensorwatch.prom" 2>/dev/null || echo 0)
kill -TERM "$spid"; wait "$spid" || true

printf '%s\n' "${plain[@]}" >"$work/plain.txt"
printf '%s\n' "${with[@]}" >"$work/with.txt"
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
total() { awk '{ s += $1 } END { print s }' "$1"; }
awk -v tp="$(total "$work/plain.txt")" -v tm="$(total "$work/with.txt")" \
    -v mp="$(median "$work/plain.txt")" -v mm="$(median "$work/with.txt")" \
    -v n="$samples" -v k="$ROUNDS" -v lim="$LIMIT" -v lines="$lines" -v bytes="$bytes" 'BEGIN {
    printf "file: %d lines, %d bytes\n", lines, bytes
    printf "all rounds: without %.3f µs, with metrics %.3f µs per sample: x%.3f (medians x%.3f); limit x%.2f: %s\n",
        tp / (n * k) / 1000, tm / (n * k) / 1000, tm / tp, mm / mp, lim, (tm / tp <= lim ? "met" : "MISSED")
    exit !(tm / tp <= lim) }'
