#!/usr/bin/env bash
# Fifty hung files (FIFOs as zones' `temp`), twenty-five in each of two thermal sources
# beside a healthy zone each: threads and memory stay bounded (one thread per hung file at
# most, left in its read; none added per tick), every hung zone becomes a fault, the healthy
# zones are read, and SIGTERM stops the daemon within 1 s, exit 0.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

# Zones a/thermal_zone0…25 and b/thermal_zone100…125; the last of each is healthy.
for src in a:0 b:100; do
    dir=$WORK/${src%%:*}
    for i in $(seq "${src#*:}" $(( ${src#*:} + 25 ))); do
        mkdir -p "$dir/thermal_zone$i"
        echo "zone$i" >"$dir/thermal_zone$i/type"
        if [ "$i" -eq $(( ${src#*:} + 25 )) ]; then echo 45000 >"$dir/thermal_zone$i/temp"; else mkfifo "$dir/thermal_zone$i/temp"; fi
    done
done
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "100ms",
  sources: [ { type: "thermal", root: "$WORK/a" }, { type: "thermal", root: "$WORK/b" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" } ] }
J
start_journald
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
threads() { ls "/proc/$pid/task" | wc -l; }
rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }
# A source's hung files are found one after another (each call gives up the file it is
# stuck in, 1 to 1.25 s after it blocked), so 25 take about 30 s; the thread count must
# never exceed one per hung file plus the daemon's own (main, executor, clock, and a poll
# thread and a stall watch per source: fewer than 10).
base=10
max=0
# Whether all 50 hung zones are faults; on the way, the most threads seen, never too many.
all_faults() {
    local n
    n=$(threads)
    [ "$n" -gt "$max" ] && max=$n
    [ "$n" -le $((50 + base)) ] || fail "$n threads with 50 hung files"
    faults=$(journal_json SENSOR_STATE=failing | grep -c . || true)
    [ "$faults" -ge 50 ]
}
WAIT_EVERY=0.5 wait_for "50 hung zones as faults (at most 50 + $base threads on the way)" 180 all_faults
note "50 hung zones are faults; at most $max threads; RSS $(rss_kib) KiB"
settled=$(threads)
# A fixed time: what is tested is that nothing happens over it, and nothing the daemon does
# marks a hung read given up again (it is a fault once, logged once).
sleep 3
[ "$(threads)" -le "$settled" ] || fail "threads grew from $settled to $(threads) once every hung file was found"
[ "$(rss_kib)" -le 32768 ] || fail "RSS $(rss_kib) KiB with 50 hung files"
# The healthy zones are read at their interval: a change alerts within half a second.
t1=$(now_ms)
put "$WORK/a/thermal_zone25/temp" 90000
wait_for "the healthy zone's alert" 50 journal_has ALERT_RULE=hot SENSOR_ID=thermal:zone25
ms=$(latency "$t1" ALERT_RULE=hot SENSOR_ID=thermal:zone25)
note "healthy zone alert $ms ms after its value changed"
[ "$ms" -le 500 ] || fail "the healthy zone's alert took $ms ms"
for id in thermal:zone25 thermal:zone125; do
    if journal_has SENSOR_ID=$id SENSOR_STATE=failing; then fail "healthy $id faulted"; fi
done
stop_within_1s "$pid" TERM
pid=
