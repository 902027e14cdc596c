#!/usr/bin/env bash
# CPU time per sample and RSS of sensorwatch, collectd 5.12 and a bare-pread floor, all
# reading the same 1000 fake thermal zones bind-mounted over /sys/class/thermal in a
# private mount namespace, at a 100 ms interval.
#
# CPU per sample = on-CPU time of all the process's threads (first field of
# /proc/PID/task/*/schedstat) over MEASURE seconds, divided by ZONES × MEASURE / 0.1 s.
# That assumes each daemon keeps up with its interval; one that falls behind looks
# cheaper than it is, which favours the competitor, not us.
#
# env: SENSORWATCH (binary, default .build/release/sensorwatch), ZONES (1000),
#      MEASURE (10 s), WARMUP (2 s). Needs root (unshare, mount), collectd-core, cc.
set -euo pipefail
ZONES=${ZONES:-1000}
MEASURE=${MEASURE:-10}
WARMUP=${WARMUP:-2}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
export ZONES MEASURE WARMUP SENSORWATCH

if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "bench: needs root (unshare -m, mount)" >&2; exit 1; }
    if ! command -v collectd >/dev/null; then
        echo "bench: installing collectd-core" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends collectd-core >&2
    fi
    command -v cc >/dev/null || { echo "bench: needs a C compiler (cc)" >&2; exit 1; }
    exec unshare -m --propagation private -- bash "$0" --inside
fi

# ---- inside the private mount namespace: nothing mounted here is seen outside ----
work=$(mktemp -d /tmp/sensorwatch-bench.XXXXXX)
pids=()
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
trap cleanup_bench EXIT

mkdir -p "$work/tree"
mount -t tmpfs -o size=64m tmpfs "$work/tree"
for ((i = 0; i < ZONES; i++)); do
    mkdir "$work/tree/thermal_zone$i"
    echo "bench_zone" >"$work/tree/thermal_zone$i/type"
    echo $((40000 + (i % 30) * 1000)) >"$work/tree/thermal_zone$i/temp"
done
mount --bind "$work/tree" /sys/class/thermal

# Measures a running process: prints "µs-per-sample rss-MiB", or "" if it died.
measure() {
    local pid=$1 a b
    sleep "$WARMUP"
    kill -0 "$pid" 2>/dev/null || return 0
    a=$(cpu_ns "$pid")
    sleep "$MEASURE"
    kill -0 "$pid" 2>/dev/null || return 0
    b=$(cpu_ns "$pid")
    awk -v d=$((b - a)) -v z="$ZONES" -v s="$MEASURE" -v r="$(rss_kib "$pid")" \
        'BEGIN { printf "%.3f %.1f\n", d / 1000 / (z * s / 0.1), r / 1024 }'
}

stop() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# 1. the floor
cc -O2 -o "$work/pread-floor" "$here/pread-floor.c"
read -r floor_us floor_kib _ < <("$work/pread-floor" /sys/class/thermal "$ZONES" 200)
floor_rss=$(awk -v k="$floor_kib" 'BEGIN { printf "%.1f", k / 1024 }')
"$work/pread-floor" /sys/class/thermal "$ZONES" 0 100 &
fpid=$!; pids+=("$fpid")
paced_fig=$(measure "$fpid")
stop "$fpid"

# 2. collectd: thermal + threshold plugins, Interval 0.1
cat >"$work/collectd.conf" <<CONF
Hostname "bench"
FQDNLookup false
BaseDir "$work"
PIDFile "$work/collectd.pid"
TypesDB "/usr/share/collectd/types.db"
Interval 0.1
LoadPlugin logfile
<Plugin logfile>
  LogLevel "warning"
  File "$work/collectd.log"
</Plugin>
LoadPlugin thermal
LoadPlugin threshold
<Plugin threshold>
  <Plugin "thermal">
    <Type "temperature">
      WarningMax 80
      FailureMax 95
    </Type>
  </Plugin>
</Plugin>
CONF
collectd -f -C "$work/collectd.conf" >"$work/collectd.out" 2>&1 &
cpid=$!; pids+=("$cpid")
collectd_fig=$(measure "$cpid")
stop "$cpid"

# 3. sensorwatch run: one thermal source at 100 ms, one rule on thermal:*
cat >"$work/sensorwatch.json5" <<CONF
{
  interval: "100ms",
  sources: [ { type: "thermal" } ],
  rules: [ { name: "bench-hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
}
CONF
sw_fig=""
if [ -x "$SENSORWATCH" ]; then
    "$SENSORWATCH" run --config "$work/sensorwatch.json5" >"$work/sensorwatch.out" 2>&1 &
    spid=$!; pids+=("$spid")
    sw_fig=$(measure "$spid")
    stop "$spid"
fi

echo "bench: $ZONES thermal zones (tmpfs bind-mounted over /sys/class/thermal), interval 100 ms, ${MEASURE} s measured"
printf '%-34s %14s %10s\n' "reader" "CPU/sample" "RSS"
printf '%-34s %11s µs %6s MiB\n' "pread floor, tight loop (C)" "$floor_us" "$floor_rss"
read -r p_us p_rss <<<"${paced_fig:-? ?}"
printf '%-34s %11s µs %6s MiB\n' "pread floor, every 100 ms (C)" "$p_us" "$p_rss"
if [ -n "$collectd_fig" ]; then
    read -r c_us c_rss <<<"$collectd_fig"
    printf '%-34s %11s µs %6s MiB\n' "collectd $(collectd -h 2>&1 | awk '/^collectd/ {sub(",", "", $2); print $2; exit}') (thermal+threshold)" "$c_us" "$c_rss"
else
    c_us=""
    echo "collectd: exited early:"; tail -n 5 "$work/collectd.out" "$work/collectd.log" 2>/dev/null
fi
if [ -n "$sw_fig" ]; then
    read -r s_us s_rss <<<"$sw_fig"
    printf '%-34s %11s µs %6s MiB\n' "sensorwatch run" "$s_us" "$s_rss"
    if [ -n "$c_us" ]; then
        awk -v s="$s_us" -v c="$c_us" -v r="$s_rss" 'BEGIN {
            printf "sensorwatch/collectd CPU: %.3f (target <= 0.1): %s\n", s / c, (s <= c / 10 ? "met" : "MISSED")
            printf "sensorwatch RSS %.1f MiB (target <= 12): %s\n", r, (r <= 12 ? "met" : "MISSED") }'
    fi
else
    echo "sensorwatch run: not measured ($SENSORWATCH missing or exited early)"
    tail -n 5 "$work/sensorwatch.out" 2>/dev/null || true
fi
