#!/usr/bin/env bash
# Cost of the Prometheus textfile (SPEC §12): `sensorwatch run` on 1000 fake thermal zones
# every 100 ms (bench/load.sh's set-up) without `metrics`, with the file written every
# second (the requirement), and with it written at every poll (FAST_INTERVAL, 50ms: ten
# writes a second). In each round the three run one after the other, in an order that
# rotates, or with TOGETHER=1 at the same time, so that the other load of a shared machine
# falls on all alike (then they compete for the two cores, and each sample costs more).
# Each reads its own copy of the zones (a mount namespace of its own): processes reading
# the same files at once bounce the page cache's reference counts between the cores. A
# driver rewrites every zone's value in place once a second, so the file's values change
# as real sensors' do (and the renderer cannot just keep its last text).
#
# Why three: one write a second is a few per cent of the daemon's CPU, less than the spread
# between rounds (two identical daemons side by side differ by up to ±5 %). Ten writes a
# second lift the cost well above that spread; (fast − without) / writes gives the CPU of
# one write, and that write once a second, over the CPU a second without metrics, is the
# rise per sample at one write a second. The direct ratio at 1 s is printed as well.
#
# CPU = the process's CPU clock (clock_gettime of its CLOCK_PROCESS_CPUTIME id, which
# counts threads that have exited, unlike /proc/PID/task/*/schedstat) over MEASURE seconds
# after WARMUP; CPU per sample = that / (zones × MEASURE / interval).
# Requirement: CPU per sample with the file every second is at most 5 % above without.
#
# env: SENSORWATCH (binary), ZONES (1000), ROUNDS (5), MEASURE (20 s), WARMUP (3 s),
#      LIMIT (1.05), FAST_INTERVAL (50ms), CHANGE (1: values change every second; 0: fixed),
#      TOGETHER (0: one daemon at a time; 1: the three at once)
# exit: 0 requirement met, 1 missed or the daemon died, 2 set-up problem.
set -euo pipefail
ZONES=${ZONES:-1000}
ROUNDS=${ROUNDS:-5}
MEASURE=${MEASURE:-20}
WARMUP=${WARMUP:-3}
LIMIT=${LIMIT:-1.05}
FAST_INTERVAL=${FAST_INTERVAL:-50ms}
CHANGE=${CHANGE:-1}
TOGETHER=${TOGETHER:-0}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
export ZONES ROUNDS MEASURE WARMUP LIMIT SENSORWATCH FAST_INTERVAL CHANGE TOGETHER

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
variants=(plain metrics fast)
for v in "${variants[@]}"; do
    mkdir "$work/tree/$v"
    write_thermal_zones "$work/tree/$v" "$ZONES"
done
mount --bind "$work/tree/metrics" /sys/class/thermal
if [ "$CHANGE" = 1 ]; then
    # Every zone of every tree gets a new value each second, written in place (the daemon
    # keeps its files open and re-reads them with pread, as it does sysfs).
    python3 - "$work/tree" "$ZONES" "${variants[@]}" <<'PY' &
import os, sys, time
root, n, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
fds = [os.open(f"{root}/{v}/thermal_zone{i}/temp", os.O_WRONLY) for v in names for i in range(n)]
step = 0
while True:
    step += 1
    for k, fd in enumerate(fds):
        os.pwrite(fd, b"%d\n" % (40000 + ((k + step) % 30) * 1000 + step % 7), 0)
    time.sleep(1)
PY
    pids+=($!)
fi

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
config "$work/metrics.json5" "metrics: { textfile: \"$textfiles/sensorwatch.prom\", interval: \"1s\" },"
mkdir -p "$textfiles-fast"
config "$work/fast.json5" "metrics: { textfile: \"$textfiles-fast/sensorwatch.prom\", interval: \"$FAST_INTERVAL\" },"

# One round: the three configurations at once, started in the order given; sets cpu[NAME]
# to the CPU nanoseconds of MEASURE seconds after WARMUP.
declare -A cpu
measure_round() { # NAME...
    if [ "$TOGETHER" = 1 ]; then
        measure_daemons "$@"
    else
        local name
        for name in "$@"; do measure_daemons "$name"; done
    fi
}

# Runs the daemons NAME... at once; sets cpu[NAME] for each.
measure_daemons() { # NAME...
    local spids=() name
    for name in "$@"; do
        mkdir -p "$work/state-$name"
        STATE_DIRECTORY=$work/state-$name unshare -m --propagation private -- \
            bash -c 'mount --bind "$1" /sys/class/thermal && exec "$2" run --config "$3"' _ \
            "$work/tree/$name" "$SENSORWATCH" "$work/$name.json5" >"$work/out-$name.txt" 2>&1 &
        spids+=($!)
        pids+=($!)
    done
    sleep "$WARMUP"
    for p in "${spids[@]}"; do
        kill -0 "$p" 2>/dev/null || { echo "metrics-cost: sensorwatch died:" >&2; tail -n 5 "$work"/out-*.txt >&2; exit 1; }
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
    local v
    for v in $ns; do
        cpu[$1]=$v
        shift
    done
}

samples=$((ZONES * MEASURE * 10))
plain=() with=() fast=()
echo "metrics-cost: $ZONES zones @ 100ms, $ROUNDS rounds of ${MEASURE} s, $([ "$TOGETHER" = 1 ] && echo "three daemons at once" || echo "one daemon at a time, order rotating") (after ${WARMUP} s warm-up): without metrics, file every 1s, file every $FAST_INTERVAL; values change: $CHANGE"
printf '%-6s %16s %16s %16s %8s %8s\n' round "without" "file every 1s" "every $FAST_INTERVAL" "ratio 1s" "fast"
orders=("plain metrics fast" "metrics fast plain" "fast plain metrics")
for ((r = 1; r <= ROUNDS; r++)); do
    # shellcheck disable=SC2086
    measure_round ${orders[$(((r - 1) % 3))]}
    # The files were written, and removed at the stop.
    [ ! -e "$textfiles/sensorwatch.prom" ] && [ ! -e "$textfiles-fast/sensorwatch.prom" ] \
        || { echo "metrics-cost: file left after stop" >&2; exit 1; }
    plain+=("${cpu[plain]}"); with+=("${cpu[metrics]}"); fast+=("${cpu[fast]}")
    awk -v p="${cpu[plain]}" -v m="${cpu[metrics]}" -v f="${cpu[fast]}" -v n="$samples" -v r="$r" \
        'BEGIN { printf "%-6s %13.3f µs %13.3f µs %13.3f µs %8.3f %8.3f\n", r, p / n / 1000, m / n / 1000, f / n / 1000, m / p, f / p }'
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
printf '%s\n' "${fast[@]}" >"$work/fast.txt"
median() { median_of <"$1"; }
total() { awk '{ s += $1 } END { print s }' "$1"; }
fast_ns=$(DurationNs=$FAST_INTERVAL python3 -c 'import os,re; m=re.fullmatch(r"(\d+)(ms|s)", os.environ["DurationNs"]); print(int(m[1]) * (10**6 if m[2] == "ms" else 10**9))')
awk -v tp="$(total "$work/plain.txt")" -v tm="$(total "$work/with.txt")" -v tf="$(total "$work/fast.txt")" \
    -v mp="$(median "$work/plain.txt")" -v mm="$(median "$work/with.txt")" -v mf="$(median "$work/fast.txt")" \
    -v n="$samples" -v k="$ROUNDS" -v secs="$MEASURE" -v lim="$LIMIT" -v lines="$lines" -v bytes="$bytes" \
    -v fastns="$fast_ns" 'BEGIN {
    # Writes a second of the fast variant: one per poll (100 ms) when its interval is shorter.
    wps = 1e9 / (fastns > 1e8 ? fastns : 1e8)
    write_us = (tf - tp) / (k * secs * wps) / 1000
    base_us = tp / (k * secs) / 1000
    est = 1 + write_us / base_us
    printf "file: %d lines, %d bytes\n", lines, bytes
    printf "all rounds: without %.3f µs, file every 1s %.3f µs, at every poll %.3f µs per sample\n",
        tp / (n * k) / 1000, tm / (n * k) / 1000, tf / (n * k) / 1000
    printf "direct, file every 1s: x%.3f (medians x%.3f)\n", tm / tp, mm / mp
    printf "at %.0f writes/s: x%.3f (medians x%.3f) -> one write = %.0f µs of CPU; without metrics %.0f µs of CPU a second\n",
        wps, tf / tp, mf / mp, write_us, base_us
    printf "estimated, file every 1s: x%.3f; limit x%.2f: %s\n", est, lim, (est <= lim && tm / tp <= lim ? "met" : "MISSED")
    exit !(est <= lim && tm / tp <= lim) }'
