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
# A shared virtual machine drifts by ±10 % over a minute, so the three are measured in
# ROUNDS interleaved rounds (floor, collectd, sensorwatch, floor, …), each started afresh,
# and the medians are printed, with the ratio of each round and their median.
#
# env: SENSORWATCH (binary, default .build/release/sensorwatch), ZONES (1000),
#      MEASURE (10 s), WARMUP (2 s), ROUNDS (3). Needs root (unshare, mount), collectd-core, cc.
set -euo pipefail
ZONES=${ZONES:-1000}
MEASURE=${MEASURE:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
export ZONES MEASURE WARMUP ROUNDS SENSORWATCH

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

# 1. the floor, tight (once: it does not drift with the pace)
cc -O2 -o "$work/pread-floor" "$here/pread-floor.c"
read -r floor_us floor_kib _ < <("$work/pread-floor" /sys/class/thermal "$ZONES" 200)
floor_rss=$(awk -v k="$floor_kib" 'BEGIN { printf "%.1f", k / 1024 }')

# collectd: thermal + threshold plugins, Interval 0.1
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

# sensorwatch run: one thermal source at 100 ms, one rule on thermal:*
cat >"$work/sensorwatch.json5" <<CONF
{
  interval: "100ms",
  sources: [ { type: "thermal" } ],
  rules: [ { name: "bench-hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
}
CONF

# Runs "$@" in the background, measures it, stops it; prints "µs-per-sample rss-MiB" or "".
run_measured() {
    "$@" >>"$work/out.log" 2>&1 &
    local pid=$!
    pids+=("$pid")
    measure "$pid"
    stop "$pid"
}

collectd_version=$(collectd -h 2>&1 | awk '/^collectd/ {sub(",", "", $2); print $2; exit}')
: >"$work/rounds"
for ((round = 1; round <= ROUNDS; round++)); do
    p=$(run_measured "$work/pread-floor" /sys/class/thermal "$ZONES" 0 100)
    c=$(run_measured collectd -f -C "$work/collectd.conf")
    s=""
    [ -x "$SENSORWATCH" ] && s=$(run_measured "$SENSORWATCH" run --config "$work/sensorwatch.json5")
    echo "${p:-? ?} ${c:-? ?} ${s:-? ?}" >>"$work/rounds"
    read -r p_us _ c_us _ s_us _ <<<"${p:-? ?} ${c:-? ?} ${s:-? ?}"
    echo "round $round: floor $p_us µs, collectd $c_us µs, sensorwatch $s_us µs" \
        "$(awk -v s="$s_us" -v c="$c_us" 'BEGIN { if (s + 0 > 0 && c + 0 > 0) printf "(ratio %.3f)", s / c }')"
done

# Median of column $1 of the rounds ("?" when any round lacks it).
median() {
    if awk -v col="$1" '$col == "?" { bad = 1 } END { exit !bad }' "$work/rounds"; then echo "?"; return; fi
    awk -v col="$1" '{ print $col }' "$work/rounds" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
p_us=$(median 1); p_rss=$(median 2); c_us=$(median 3); c_rss=$(median 4); s_us=$(median 5); s_rss=$(median 6)
ratio=$(awk '$5 != "?" && $3 != "?" { print $5 / $3 }' "$work/rounds" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')

echo "bench: $ZONES thermal zones (tmpfs bind-mounted over /sys/class/thermal), interval 100 ms," \
    "median of $ROUNDS rounds of ${MEASURE} s"
printf '%-34s %14s %10s\n' "reader" "CPU/sample" "RSS"
printf '%-34s %11s µs %6s MiB\n' "pread floor, tight loop (C)" "$floor_us" "$floor_rss"
printf '%-34s %11s µs %6s MiB\n' "pread floor, every 100 ms (C)" "$p_us" "$p_rss"
if [ "$c_us" != "?" ]; then
    printf '%-34s %11s µs %6s MiB\n' "collectd $collectd_version (thermal+threshold)" "$c_us" "$c_rss"
else
    echo "collectd: exited early:"; tail -n 5 "$work/out.log" "$work/collectd.log" 2>/dev/null
fi
if [ "$s_us" != "?" ]; then
    printf '%-34s %11s µs %6s MiB\n' "sensorwatch run" "$s_us" "$s_rss"
    if [ -n "$ratio" ]; then
        awk -v q="$ratio" -v r="$s_rss" 'BEGIN {
            printf "sensorwatch/collectd CPU (median of the rounds): %.3f (target <= 0.1): %s\n", q, (q <= 0.1 ? "met" : "MISSED")
            printf "sensorwatch RSS %.1f MiB (target <= 12): %s\n", r, (r <= 12 ? "met" : "MISSED") }'
    fi
else
    echo "sensorwatch run: not measured ($SENSORWATCH missing or exited early)"
    tail -n 5 "$work/out.log" 2>/dev/null || true
fi
