#!/usr/bin/env bash
# A predict rule (SPEC §10) under `sensorwatch run` with a private journald: the entries carry
# ALERT_PREDICTED (absent where the window had no line), the messages say where the trend is
# heading, and `history` shows the prediction.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_journal_test

start_journald
# over 2s, within 3s: at 3 the line through (1, 72) (2, 74) (3, 76) reads 82 at 6 (> 80:
# firing); at 10 the window [8, 10] holds one sample, no line (resolved, no prediction).
write_scenario "$WORK/scenario.json5" "[[0, 70], [1, 72], [2, 74], [3, 76], [10, 77]]"
cat >"$WORK/sensorwatch.json5" <<'JSON'
{
  interval: "100ms",
  sources: [ { type: "simulated", scenario: "scenario.json5", interval: "100ms" } ],
  rules: [ { name: "cpu-trend", sensor: "sim:cpu", predict: { above: 80, within: "3s", over: "2s" } } ],
}
JSON
mkdir -p "$WORK/state"
STATE_DIRECTORY=$WORK/state "$BIN" run --config "$WORK/sensorwatch.json5" 2>"$WORK/stderr" &
pid=$!
wait_for "the resolved entry" 200 has_state resolved
kill -TERM "$pid"
wait "$pid" || fail "run exited with $? on SIGTERM"

firing=$(journal_json ALERT_STATE=firing)
expect_field "$firing" MESSAGE "cpu-trend firing: sim:cpu (CPU package) 76 °C, heading above 80 °C within 3s (82 °C)"
expect_field "$firing" ALERT_CONDITION predict
expect_field "$firing" ALERT_THRESHOLD 80
expect_field "$firing" ALERT_PREDICTED 82
expect_field "$firing" ALERT_WITHIN 3
expect_field "$firing" SENSOR_VALUE 76
resolved=$(journal_json ALERT_STATE=resolved)
expect_field "$resolved" MESSAGE "cpu-trend resolved: sim:cpu (CPU package) 77 °C, no longer heading above 80 °C within 3s"
expect_field "$resolved" ALERT_PREDICTED "<missing>"
[ "$(journalctl --no-pager -o cat ALERT_CONDITION=predict | grep -c .)" = 2 ] || fail "journalctl ALERT_CONDITION=predict"

"$BIN" history >"$WORK/history.txt"
grep -q ' cpu-trend firing sim:cpu (CPU package) 76 °C threshold 80 °C within 3s predicted 82 °C \[warning\]$' \
    <(sed -n 1p "$WORK/history.txt") || fail "history line 1: $(sed -n 1p "$WORK/history.txt")"
grep -q ' cpu-trend resolved sim:cpu (CPU package) 77 °C threshold 80 °C within 3s \[warning\]$' \
    <(sed -n 2p "$WORK/history.txt") || fail "history line 2: $(sed -n 2p "$WORK/history.txt")"
[ "$("$BIN" history --json --rule cpu-trend | jq -r '.predicted' | paste -sd,)" = "82,null" ] \
    || fail "history --json predicted: $("$BIN" history --json --rule cpu-trend)"
note "predict entries carry ALERT_PREDICTED; history shows it"
