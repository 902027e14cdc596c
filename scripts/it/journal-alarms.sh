#!/usr/bin/env bash
# The chips' own alarms (SPEC §16b) under `sensorwatch run` with a private journald, on a fake
# hwmon tree: a latched temp1_crit_alarm while temp1 reads 45 °C (crit 100 °C) fires the
# `above: "crit"` rule with "(hardware alarm)" and ALERT_ALARM=1, and the `alarm: true` rule
# with ALERT_LIMIT=crit; both resolve once the alarm reads 0 (45 °C is under the clear
# point); a fan's plain fan1_alarm fires only the alarm rule, ALERT_LIMIT=alarm. `sensors`
# shows ALARM (CRIT) as lm-sensors does.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_journal_test
source "$(dirname "$0")/lib/faults.sh"

start_journald
h=$WORK/sys/class/hwmon
w() { tree_file "$h/$1" "$2"; }
w hwmon0/name coretemp; w hwmon0/temp1_label "Package id 0"; w hwmon0/temp1_input 45000
w hwmon0/temp1_crit 100000; w hwmon0/temp1_crit_hyst 95000; w hwmon0/temp1_crit_alarm 0
w hwmon0/fan1_input 1200; w hwmon0/fan1_alarm 0

cat >"$WORK/sensorwatch.json5" <<JSON
{
  interval: "100ms",
  sources: [ { type: "hwmon", root: "$h" } ],
  rules: [
    { name: "too-hot", quantity: "temperature", above: "crit", severity: "critical" },
    { name: "hw-alarm", alarm: true, severity: "warning" },
  ],
  metrics: { textfile: "$WORK/metrics/sensorwatch.prom", interval: "200ms" },
}
JSON
mkdir -p "$WORK/state" "$WORK/metrics"
"$BIN" check --config "$WORK/sensorwatch.json5" >/dev/null || fail "check refuses an alarm rule"
STATE_DIRECTORY=$WORK/state "$BIN" run --config "$WORK/sensorwatch.json5" 2>"$WORK/stderr" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; stop_journald' EXIT
wait_for "the metrics file" 100 test -s "$WORK/metrics/sensorwatch.prom"
put "$h/hwmon0/temp1_crit_alarm" 1
wait_for "the firing entries" 100 has_state firing 2
"$BIN" sensors --config "$WORK/sensorwatch.json5" >"$WORK/sensors.txt"
grep -q '/temp1  *Package id 0  *temperature  45 °C (crit 100 °C)  ALARM (CRIT)$' "$WORK/sensors.txt" \
    || fail "sensors table: $(cat "$WORK/sensors.txt")"
"$BIN" sensors --json --config "$WORK/sensorwatch.json5" | jq -e '.[] | select(.id | endswith("/temp1")) | .alarms == ["crit"]' >/dev/null \
    || fail "sensors --json has no alarms: [\"crit\"]"
put "$h/hwmon0/temp1_crit_alarm" 0
wait_for "the resolved entries" 100 has_state resolved 2

hot=$(journal_json ALERT_RULE=too-hot ALERT_STATE=firing)
[ "$(grep -c . <<<"$hot")" = 1 ] || fail "too-hot fired $(grep -c . <<<"$hot") times"
expect_field "$hot" MESSAGE "too-hot firing: $(jq -r .SENSOR_ID <<<"$hot") (Package id 0) 45 °C above 100 °C (crit) (hardware alarm)"
expect_field "$hot" ALERT_ALARM 1
expect_field "$hot" ALERT_LIMIT crit
expect_field "$hot" SENSOR_VALUE 45
expect_field "$hot" PRIORITY 2
alarm=$(journal_json ALERT_RULE=hw-alarm ALERT_STATE=firing)
expect_field "$alarm" ALERT_LIMIT crit
expect_field "$alarm" ALERT_ALARM "<missing>"
expect_field "$alarm" ALERT_CONDITION alarm
expect_field "$alarm" MESSAGE "hw-alarm firing: $(jq -r .SENSOR_ID <<<"$alarm") (Package id 0) 45 °C in hardware alarm (crit)"
resolved=$(journal_json ALERT_RULE=too-hot ALERT_STATE=resolved)
expect_field "$resolved" ALERT_ALARM "<missing>"
expect_field "$resolved" SENSOR_VALUE 45

# A fan's plain alarm: the alarm rule only.
put "$h/hwmon0/fan1_alarm" 1
wait_for "the fan's alarm" 100 has_state firing 3
fan=$(journal_json ALERT_RULE=hw-alarm ALERT_STATE=firing SENSOR_QUANTITY=fan)
expect_field "$fan" ALERT_LIMIT alarm
[ "$(count_state firing ALERT_RULE=too-hot)" = 1 ] || fail "too-hot fired for the fan"
kill -TERM "$pid"
wait "$pid" || fail "run exited with $? on SIGTERM"
note "journal alarms: ok"
