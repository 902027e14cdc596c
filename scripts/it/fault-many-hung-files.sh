#!/usr/bin/env bash
# Fifty hung files (FIFOs as zones' `temp`) beside two healthy zones in one thermal source,
# and ten more in a source of their own: threads and memory stay bounded (one thread per
# hung file at most, left in its read; none added per tick), every hung zone becomes a
# fault, the healthy zones keep being read, and SIGTERM stops the daemon within 1 s, exit 0.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

T=$WORK/thermal
for i in $(seq 0 51); do
    mkdir -p "$T/thermal_zone$i"
    echo "zone$i" >"$T/thermal_zone$i/type"
    if [ "$i" -eq 0 ] || [ "$i" -eq 51 ]; then echo 45000 >"$T/thermal_zone$i/temp"; else mkfifo "$T/thermal_zone$i/temp"; fi
done
for i in $(seq 0 9); do
    mkdir -p "$WORK/more/thermal_zone$i"
    echo "more$i" >"$WORK/more/thermal_zone$i/type"
    mkfifo "$WORK/more/thermal_zone$i/temp"
done
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "100ms",
  sources: [ { type: "thermal", root: "$T" }, { type: "thermal", root: "$WORK/more" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" } ] }
J
start_journald
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
threads() { ls "/proc/$pid/task" | wc -l; }
rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }
# Hung files are found one after another (each call gives up the file it is stuck in):
# within about 1.5 s each, so sixty take up to 90 s; the count must never exceed
# one thread per hung file plus the daemon's own.
base=8
max=0
for _ in $(seq 1 120); do
    n=$(threads)
    [ "$n" -gt "$max" ] && max=$n
    [ "$n" -le $((60 + base)) ] || fail "$n threads with 60 hung files"
    faults=$(journal_json SENSOR_STATE=failing | grep -c . || true)
    [ "$faults" -ge 60 ] && break
    sleep 1
done
[ "$faults" -ge 60 ] || fail "only $faults of 60 hung zones became faults"
note "60 hung zones are faults; at most $max threads; RSS $(rss_kib) KiB"
settled=$(threads)
sleep 3
[ "$(threads)" -le "$settled" ] || fail "threads grew from $settled to $(threads) once every hung file was found"
[ "$(rss_kib)" -le 32768 ] || fail "RSS $(rss_kib) KiB with 60 hung files"
# The healthy zones are read at their interval: a change alerts within half a second.
t1=$(now_ms)
put "$T/thermal_zone51/temp" 90000
wait_for "the healthy zone's alert" 50 journal_has ALERT_RULE=hot SENSOR_ID=thermal:thermal_zone51
ms=$(latency "$t1" ALERT_RULE=hot SENSOR_ID=thermal:thermal_zone51)
note "healthy zone alert $ms ms after its value changed"
[ "$ms" -le 500 ] || fail "the healthy zone's alert took $ms ms"
if journal_has SENSOR_ID=thermal:thermal_zone0 SENSOR_STATE=failing; then fail "a healthy zone faulted"; fi
stop_within_1s "$pid" TERM
pid=
