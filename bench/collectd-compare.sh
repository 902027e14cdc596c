#!/usr/bin/env bash
# CPU time per sample and RSS of sensorwatch, collectd 5.12 and a bare-pread floor, all
# reading the same 1000 fake thermal zones bind-mounted over /sys/class/thermal in a
# private mount namespace, at a 100 ms interval.
#
# CPU per sample: wait4(2) rusage (ru_utime + ru_stime, every thread of the process,
# also those that exited — summing /proc/PID/task/*/schedstat misses libdispatch workers
# that came and went) of a SHORT and a LONG run, differenced, divided by
# ZONES × (LONG - SHORT) / 0.1 s. RSS: VmRSS at the end of the long run (steady state).
# That assumes each daemon keeps up with its interval, which a short extra run checks: the
# read calls counted (perf stat on the syscall tracepoints, else `strace -c -f`) must cover
# every zone at every tick.
#
# A shared virtual machine drifts by ±10 % over a minute, so the three are measured in
# ROUNDS interleaved rounds (floor, collectd, sensorwatch, floor, …), each started afresh,
# and the medians are printed, with the ratio of each round and their median.
#
# env: SENSORWATCH (binary, default .build/release/sensorwatch), ZONES (1000),
#      SHORT (3 s), LONG (13 s), ROUNDS (3), STRACE (3 s; 0 skips the read check).
#      Needs root (unshare, mount), collectd-core, cc, and perf or strace for the read check.
set -euo pipefail
ZONES=${ZONES:-1000}
SHORT=${SHORT:-3}
LONG=${LONG:-13}
ROUNDS=${ROUNDS:-3}
STRACE=${STRACE:-3}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
export ZONES SHORT LONG ROUNDS STRACE SENSORWATCH

if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "bench: needs root (unshare -m, mount)" >&2; exit 1; }
    if ! command -v collectd >/dev/null; then
        echo "bench: installing collectd-core" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends collectd-core >&2
    fi
    command -v cc >/dev/null || { echo "bench: needs a C compiler (cc)" >&2; exit 1; }
    command -v python3 >/dev/null || { echo "bench: needs python3 (the zone tree)" >&2; exit 1; }
    exec unshare -m --propagation private -- bash "$0" --inside
fi

# ---- inside the private mount namespace: nothing mounted here is seen outside ----
work=$(mktemp -d /tmp/sensorwatch-bench.XXXXXX)
# The daemons keep their state.json here, not in the host's /var/lib/sensorwatch.
export STATE_DIRECTORY=$work
pids=()
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
trap cleanup_bench EXIT

mount_thermal_zones "$ZONES"
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

# Runs "$@" for SHORT and for LONG seconds; prints "µs-per-sample rss-MiB", or "" if a run
# failed. Output goes to $work/out.log.
run_measured() {
    local a b
    a=$("$work/rusage-run" "$SHORT" "$@" 2>>"$work/out.log") || return 0
    b=$("$work/rusage-run" "$LONG" "$@" 2>>"$work/out.log") || return 0
    awk -v a="$a" -v b="$b" -v z="$ZONES" -v d=$((LONG - SHORT)) 'BEGIN {
        split(a, x, " "); split(b, y, " ")
        if (y[5] <= 0) exit
        printf "%.3f %.1f\n", (y[3] - x[3]) / 1000 / (z * d / 0.1), y[5] / 1024 }'
}

# Read calls of "$@" over STRACE seconds (after a second of start-up), against ZONES reads
# per 100 ms tick: prints "reads expected ratio". Counted by the kernel's syscall
# tracepoints (perf stat), which cost the traced process nothing; `strace -c -f` (the
# fallback) stops it at every call, and collectd, which opens, reads and closes each file
# per sample, then really falls behind.
read_check() {
    local n pid
    if command -v perf >/dev/null && perf stat -e syscalls:sys_enter_read true >/dev/null 2>&1; then
        "$@" >>"$work/out.log" 2>&1 &
        pid=$!
        sleep 1
        n=$(perf stat -x, -e syscalls:sys_enter_read,syscalls:sys_enter_pread64 -p "$pid" -- sleep "$STRACE" 2>&1 |
            awk -F, '$3 ~ /sys_enter_(read|pread64)$/ { s += $1 } END { print s + 0 }')
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    else
        timeout -s TERM "$STRACE" strace -f -c -o "$work/strace.log" -e trace=read,pread64 "$@" >>"$work/out.log" 2>&1 || true
        n=$(awk '$NF == "read" || $NF == "pread64" { s += $4 } END { print s + 0 }' "$work/strace.log")
    fi
    awk -v n="$n" -v e=$((ZONES * STRACE * 10)) 'BEGIN { printf "%d %d %.2f\n", n, e, n / e }'
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
    awk -v col="$1" '{ print $col }' "$work/rounds" | median_of
}
p_us=$(median 1); p_rss=$(median 2); c_us=$(median 3); c_rss=$(median 4); s_us=$(median 5); s_rss=$(median 6)
ratio=$(awk '$5 != "?" && $3 != "?" { print $5 / $3 }' "$work/rounds" | median_of)

echo "bench: $ZONES thermal zones (tmpfs bind-mounted over /sys/class/thermal), interval 100 ms," \
    "median of $ROUNDS rounds, wait4 rusage of ${SHORT} s and ${LONG} s runs differenced"
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
# Every zone read at every tick? (A daemon that falls behind would look cheaper than it is.)
if [ "$STRACE" != 0 ] && { command -v perf >/dev/null || command -v strace >/dev/null; }; then
    for who in collectd sensorwatch; do
        if [ "$who" = collectd ]; then set -- collectd -f -C "$work/collectd.conf"
        else set -- "$SENSORWATCH" run --config "$work/sensorwatch.json5"; fi
        read -r n e q < <(read_check "$@")
        # Start-up and the last partial tick make a short run read a little less or more.
        awk -v w="$who" -v n="$n" -v e="$e" -v q="$q" -v s="$STRACE" 'BEGIN {
            printf "%s: %d read calls in %d s, %d expected (every zone every tick): %.2f %s\n",
                w, n, s, e, q, (q >= 0.9 ? "ok" : "FELL BEHIND") }'
    done
fi
