#!/usr/bin/env bash
# A source whose read blocks forever (a FIFO as a zone's `temp`, nobody writing) and one
# whose read stalls for 3 s (a FIFO its writer opens late; after that the read fails with
# ESPIPE): the other sources keep their interval, their alerts arrive on time, the stuck
# sensors are faults once (`read blocked for 1s`: the reason of the first failure is the
# one logged) and go stale (once), a reload does not wait for the hanging read, and the
# daemon still stops on SIGTERM within 1 s.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

zone() { # DIR TYPE
    mkdir -p "$1"
    echo "$2" >"$1/type"
}
zone "$WORK/stuck/thermal_zone0" stuck
mkfifo "$WORK/stuck/thermal_zone0/temp"
zone "$WORK/slow/thermal_zone5" slow
mkfifo "$WORK/slow/thermal_zone5/temp"
zone "$WORK/fast/thermal_zone9" fast
put "$WORK/fast/thermal_zone9/temp" 50000
write_scenario "$WORK/scenario.json5" "[[0, 50], [1, 85], [2, 50]]"
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "100ms",
  sources: [
    { type: "thermal", root: "$WORK/stuck" },
    { type: "thermal", root: "$WORK/slow" },
    { type: "thermal", root: "$WORK/fast" },
    { type: "simulated", scenario: "scenario.json5", interval: "100ms" },
  ],
  rules: [
    { name: "cpu-hot", sensor: "sim:cpu", above: 80, severity: "critical" },
    { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" },
    { name: "silent", sensor: "thermal:*", stale: "1s", severity: "warning" },
  ] }
J
start_journald
t0=$(now_ms)
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
# The slow zone's "driver" answers after 3 s: its open(2) returns, then pread(2) fails.
( sleep 3; exec 3>"$WORK/slow/thermal_zone5/temp"; exec sleep 30 ) &
helpers+=($!)

# The scenario's alerts come 1 s and 2 s after start, whatever the stuck sources do.
expect_scenario_alerts_on_time "$t0"

# The fast zone, read every 100 ms, while the slow one is still stalled.
t1=$(now_ms)
put "$WORK/fast/thermal_zone9/temp" 90000
wait_for "the fast zone's alert" 100 journal_has ALERT_RULE=hot SENSOR_ID=thermal:fast
hot=$(latency "$t1" ALERT_RULE=hot SENSOR_ID=thermal:fast)
note "fast zone alert $hot ms after its value changed (interval 100 ms)"
[ "$hot" -le 1500 ] || fail "the fast zone's alert took $hot ms"

# The stuck and the stalled zone never read: they go stale after 1 s. The fast one never does.
wait_for "the stuck zone's stale alert" 100 journal_has ALERT_RULE=silent SENSOR_ID=thermal:stuck
wait_for "the slow zone's stale alert" 100 journal_has ALERT_RULE=silent SENSOR_ID=thermal:slow
stale=$(journal_json ALERT_RULE=silent SENSOR_ID=thermal:stuck | jq -r '"\(.PRIORITY) \(.MESSAGE)"')
[ "$stale" = "4 silent firing: thermal:stuck (stuck) no reading for 1s" ] || fail "stale entry: $stale"
# Both stuck zones are faults from the second their read blocked, reported once each; the
# slow zone's read ends after 3 s with ESPIPE, which is not logged again.
for id in thermal:stuck thermal:slow; do
    wait_for "$id's fault" 100 journal_has SENSOR_ID=$id SENSOR_STATE=failing
done
fault=$(journal_json SENSOR_ID=thermal:slow SENSOR_STATE=failing)
[ "$(jq -r '"\(.PRIORITY) \(.MESSAGE)"' <<<"$fault")" = "4 sensor thermal:slow (slow) read failed: read blocked for 1s" ] \
    || fail "slow zone fault: $(jq -r '"\(.PRIORITY) \(.MESSAGE)"' <<<"$fault")"
sleep 3   # the slow zone's writer comes after 3 s; its failing reads are not logged again
[ "$(journal_json SENSOR_STATE=failing | grep -c .)" = 2 ] || fail "faults logged more than once: $(journal_notes)"
if journal_has ALERT_RULE=silent SENSOR_ID=thermal:fast; then fail "the fast zone went stale"; fi

# A reload while a read hangs: it neither waits for that read nor repeats an alert.
kill -HUP "$pid"
wait_for "the reload while a read hangs" 100 has_note '^6 configuration reloaded: 4 sources, 3 rules$'
sleep 0.5
for key in "ALERT_RULE=silent SENSOR_ID=thermal:stuck" "ALERT_RULE=cpu-hot ALERT_STATE=firing"; do
    # shellcheck disable=SC2086
    [ "$(journal_json $key | grep -c .)" = 1 ] || fail "expected one entry with $key, got $(journal_json $key | grep -c .)"
done
stop_within_1s "$pid" TERM
pid=
note "stuck and slow sources stalled only themselves"
