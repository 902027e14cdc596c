#!/usr/bin/env bash
# Stops at bad moments. SIGTERM while about 50 events a second are being written: the daemon
# stops within 1 s and what reached the journal is exactly the first N events `simulate`
# lists (no gap, nothing twice). SIGKILL while an alert fires, then a restart on the kept
# $STATE_DIRECTORY: no second firing, and the resolved is logged once after the restart.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test
start_journald

# --- SIGTERM in a stream of events: a firing and a resolved every 40 ms.
write_sine_scenario "$WORK/burst.json5" 20s 10ms 40ms
cat >"$WORK/burst-config.json5" <<'J'
{ sources: [ { type: "simulated", scenario: "burst.json5", interval: "10ms" } ],
  rules: [ { name: "cpu-hot", sensor: "sim:cpu", above: 80, severity: "critical" } ] }
J
expected_messages "$WORK/burst-config.json5" >"$WORK/expected-burst"
start_daemon "$WORK/burst-config.json5" "$WORK/stderr-burst"
wait_for "a stream of alerts" 150 has_state firing 40
stop_within_1s "$pid" TERM
journal_json _PID="$pid" | jq -r 'select(.ALERT_STATE != null) | .MESSAGE' >"$WORK/burst-journal"
pid=
expect_prefix "$WORK/expected-burst" "$WORK/burst-journal"
[ -z "$(stderr_messages "$WORK/stderr-burst")" ] || fail "alerts on stderr with journald running"
note "SIGTERM after $(grep -c . "$WORK/burst-journal") events: all of them the first ones expected, in order"
rm -f "$WORK/state/state.json"

# --- SIGKILL while firing, restart with the kept state.
write_scenario "$WORK/hot.json5" "[[0, 50], [0.3, 85], [0.6, 86], [60, 86]]"
write_scenario "$WORK/cools.json5" "[[0, 86], [0.5, 87], [1, 50]]"
write_config "$WORK/sensorwatch.json5" hot.json5
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr-1"
wait_for "the firing entry" 100 journal_has ALERT_STATE=firing _PID="$pid"
wait_for "the firing alert in state.json" 100 \
    eval 'jq -e ".alerts[0].rule == \"cpu-hot\"" "$WORK/state/state.json" >/dev/null 2>&1'
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
first=$pid
write_config "$WORK/sensorwatch.json5" cools.json5
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr-2"
wait_for "the resolved after the restart" 100 journal_has ALERT_STATE=resolved _PID="$pid"
stop_within_1s "$pid" TERM
second=$pid
pid=
{
    journal_json _PID="$first" | jq -r 'select(.ALERT_STATE != null) | .MESSAGE'
    journal_json _PID="$second" | jq -r 'select(.ALERT_STATE != null) | .MESSAGE'
} >"$WORK/journal"
cat >"$WORK/expected" <<'X'
cpu-hot firing: sim:cpu (CPU package) 85 °C above 80 °C
cpu-hot resolved: sim:cpu (CPU package) 50 °C, no longer above 80 °C
X
diff -u "$WORK/expected" "$WORK/journal" || fail "expected one firing before and one resolved after the kill"
jq -e '.alerts == []' "$WORK/state/state.json" >/dev/null || fail "state.json still holds alerts: $(cat "$WORK/state/state.json")"
note "kill -9 while firing: no second firing, resolved once after the restart"
