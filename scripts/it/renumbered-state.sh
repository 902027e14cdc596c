#!/usr/bin/env bash
# The same devices under other numbers (SPEC §20 "Renumbered", another boot): a written
# thermal tree whose zones swap their thermal_zoneN directories between two runs of the
# daemon keeps its ids, values and alert state. The hot zone's alert fires once in the first
# run; in the second, after the swap, it is still firing (kept in the state file, shown in
# the status file under the same id), nothing fires or resolves anew, and the cool zone
# stays quiet. With ids from the kernel's numbering the swap resolved the first zone's alert
# and fired the second's.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

T=$WORK/thermal
zone "$T/thermal_zone0" acpitz 90000
zone "$T/thermal_zone1" x86_pkg_temp 40000
# Made hot during the second run: its alert, logged after whatever the swap did at the first
# poll, marks the point where the absence of other alerts is checked.
zone "$T/thermal_zone2" canary 40000
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "1s",
  sources: [ { type: "thermal", root: "$T" } ],
  statusFile: "$WORK/status.json",
  rules: [ { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" } ] }
J
# Whether the status file shows SENSOR's hot alert firing.
status_firing() { # SENSOR
    jq -e --arg s "$1" '[.alerts[] | select(.rule == "hot" and .sensor == $s and .state == "firing")] | length == 1' \
        "$WORK/status.json" >/dev/null 2>&1
}
# Whether the status file shows SENSOR's value as VALUE.
status_value() { # SENSOR VALUE
    jq -e --arg s "$1" --argjson v "$2" '[.sensors[] | select(.id == $s and .value == $v)] | length == 1' \
        "$WORK/status.json" >/dev/null 2>&1
}

start_journald
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr.1"
wait_for "the hot zone's alert" 100 journal_has ALERT_RULE=hot ALERT_STATE=firing SENSOR_ID=thermal:acpitz
wait_for "the first run's status file" 50 status_firing thermal:acpitz
stop_within_1s "$pid" TERM
first=$pid
pid=
jq -e '[.alerts[] | select(.sensor == "thermal:acpitz")] | length == 1' "$WORK/state/state.json" >/dev/null \
    || fail "the state file does not keep the firing alert: $(cat "$WORK/state/state.json")"

# Another boot: the kernel registered the zones the other way round.
mv "$T/thermal_zone0" "$T/swap" && mv "$T/thermal_zone1" "$T/thermal_zone0" && mv "$T/swap" "$T/thermal_zone1"
[ "$(cat "$T/thermal_zone1/type")" = acpitz ] || fail "the swap did not happen"

rm -f "$WORK/status.json"
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr.2"
wait_for "the second run's readings" 100 eval 'status_value thermal:acpitz 90 && status_value thermal:x86_pkg_temp 40'
status_firing thermal:acpitz || fail "after renumbering the alert is not firing: $(cat "$WORK/status.json")"
# The canary's alert comes after whatever the swap fired or resolved at the first polls.
put "$T/thermal_zone2/temp" 95000
wait_for "the canary's alert" 50 journal_has ALERT_RULE=hot ALERT_STATE=firing SENSOR_ID=thermal:canary
status_firing thermal:acpitz || fail "after renumbering the alert stopped firing: $(cat "$WORK/status.json")"
stop_within_1s "$pid" TERM
second=$pid
pid=

[ "$(journal_json _PID="$first" ALERT_RULE=hot | grep -c .)" -eq 1 ] \
    || fail "the first run should log one alert: $(journal_json _PID="$first" ALERT_RULE=hot)"
after=$(journal_json _PID="$second" ALERT_RULE=hot | grep -v '"thermal:canary"' || true)
[ -z "$after" ] || fail "renumbering logged alerts anew: $after"
note "swapped zone numbers: same ids and values, the alert kept firing across the restart, nothing logged anew"
