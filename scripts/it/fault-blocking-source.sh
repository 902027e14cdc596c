#!/usr/bin/env bash
# A source whose read blocks forever (a FIFO as a zone's `temp`, nobody writing) and one
# whose read stalls until it is a fault (a FIFO its writer opens late; after that the read
# fails with ESPIPE): the other sources keep their interval, their alerts arrive on time, the stuck
# sensors are faults once (`read blocked for 1s`: the reason of the first failure is the
# one logged) and go stale (once), a reload does not wait for the hanging read, and the
# daemon still stops on SIGTERM within 1 s.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

zone "$WORK/stuck/thermal_zone0" stuck fifo
zone "$WORK/slow/thermal_zone5" slow fifo
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
# The slow zone's "driver" answers now, its read blocked for well over 1 s: its open(2)
# returns (the daemon holds the FIFO open), then pread(2) fails.
( exec 3>"$WORK/slow/thermal_zone5/temp"; exec sleep 60 ) &
helpers+=($!)
slow_open() { ls -l "/proc/$pid/fd" 2>/dev/null | grep -qF "$WORK/slow/thermal_zone5/temp"; }
wait_for "the slow zone's open to return" 100 slow_open

# A reload while a read hangs: it neither waits for that read nor repeats an alert. Its line
# is also the later event after the slow zone's failing read: that read was not logged again.
kill -HUP "$pid"
wait_for "the reload while a read hangs" 100 has_note '^6 configuration reloaded: 4 sources, 3 rules$'
[ "$(journal_json SENSOR_STATE=failing | grep -c .)" = 2 ] || fail "faults logged more than once: $(journal_notes)"
# A sample of the fast zone after the reload: the alerts that reload could repeat would be
# in the journal before it.
put "$WORK/fast/thermal_zone9/temp" 50000
wait_for "the fast zone resolved after the reload" 100 journal_has ALERT_RULE=hot SENSOR_ID=thermal:fast ALERT_STATE=resolved
if journal_has ALERT_RULE=silent SENSOR_ID=thermal:fast; then fail "the fast zone went stale"; fi
for key in "ALERT_RULE=silent SENSOR_ID=thermal:stuck" "ALERT_RULE=cpu-hot ALERT_STATE=firing"; do
    # shellcheck disable=SC2086
    [ "$(journal_json $key | grep -c .)" = 1 ] || fail "expected one entry with $key, got $(journal_json $key | grep -c .)"
done
stop_within_1s "$pid" TERM
pid=
note "stuck and slow sources stalled only themselves"
