#!/usr/bin/env bash
# Kept state across a kill -9: an alert that still fires after the restart is not logged as
# firing again; one that cleared while the daemon was down is logged as resolved, once.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_unit_test
# Hot from the start, for longer than the test runs; the scenario restarts with the process.
write_scenario "$WORK/hot.json5" "[[0, 85], [1, 86], [2, 87], [3, 86], [60, 86]]"
write_scenario "$WORK/cool.json5" "[[0, 50], [1, 51], [60, 50]]"
# The metrics file, written as the daemon samples: its rewrites are the later events.
PROM=$XDG_RUNTIME_DIR/sensorwatch/sensorwatch.prom
with_metrics() { sed -i "s|^}|  metrics: { textfile: \"$PROM\", interval: \"200ms\" },\n}|" "$WORK/sensorwatch.json5"; }
write_config "$WORK/sensorwatch.json5" "hot.json5"
with_metrics
test_dropin <<UNIT
RestartSec=200ms
UNIT

systemctl --user start sensorwatch.service || fail "start failed"
wait_for "the firing entry" 100 has_state firing
state=$(find "$HOME" -name state.json -path '*sensorwatch*' | head -n 1)
[ -n "$state" ] || fail "no state.json under the unit's StateDirectory"
jq -e '.alerts[0].rule == "cpu-hot"' "$state" >/dev/null || fail "state.json lacks the alert: $(cat "$state")"
first=$(unit_prop MainPID)
kill -9 "$first"
wait_for "the restart after kill -9" 100 prop_at_least NRestarts 1
wait_for "the restarted service" 50 prop_is ActiveState active
wait_for_rewrite "$PROM" 3 # several hot samples after the restart
[ "$(count_state firing)" = 1 ] || fail "firing logged $(count_state firing) times across the restart"

# Cleared while down: stop, cool scenario, start: resolved exactly once.
systemctl --user stop sensorwatch.service
write_config "$WORK/sensorwatch.json5" "cool.json5"
with_metrics
systemctl --user start sensorwatch.service || fail "start failed"
wait_for "the resolved entry" 100 has_state resolved
wait_for_rewrite "$PROM" 3 # several cool samples after it
[ "$(count_state resolved)" = 1 ] || fail "resolved logged $(count_state resolved) times"
[ "$(count_state firing)" = 1 ] || fail "firing logged again"
note "kill -9 and restart: one firing, one resolved"
