#!/usr/bin/env bash
# Rules from the hardware's limits (SPEC §16) under `sensorwatch run` with a private journald,
# on a fake tree of three real-looking chips (coretemp, nvme, nct6798): `above: "crit"` fires
# for the coretemp package at its own crit and clears at its crit_hyst, the entry carries
# ALERT_LIMIT=crit and says "(crit)"; the nvme's bogus max (65261.85 °C) and the nct6798's
# unset registers are ignored, so the chip without a crit is not selected at all and the
# `otherwise` rule gives no ALERT_LIMIT. The metrics file carries each plausible limit and
# is promtool-clean. docs/limits.md shows this very example.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_journal_test
need promtool prometheus
source "$(dirname "$0")/lib/faults.sh"

start_journald
h=$WORK/sys/class/hwmon
w() { tree_file "$h/$1" "$2"; }
w hwmon0/name coretemp; w hwmon0/temp1_label "Package id 0"; w hwmon0/temp1_input 45000
w hwmon0/temp1_max 80000; w hwmon0/temp1_crit 100000; w hwmon0/temp1_crit_hyst 95000
w hwmon1/name nvme; w hwmon1/temp1_label Composite; w hwmon1/temp1_input 38850
w hwmon1/temp1_max 81850; w hwmon1/temp1_crit 84850; w hwmon1/temp1_min -273150
w hwmon1/temp2_label "Sensor 1"; w hwmon1/temp2_input 38850; w hwmon1/temp2_max 65261850; w hwmon1/temp2_min -273150
w hwmon2/name nct6798; w hwmon2/temp1_label SYSTIN; w hwmon2/temp1_input 30000
w hwmon2/temp1_max 0; w hwmon2/temp1_max_hyst 0

cat >"$WORK/sensorwatch.json5" <<JSON
{
  interval: "100ms",
  sources: [ { type: "hwmon", root: "$h" } ],
  rules: [
    { name: "too-hot", quantity: "temperature", above: "crit", severity: "critical" },
    { name: "warm", quantity: "temperature", above: { limit: "max", otherwise: 60 }, severity: "warning" },
  ],
  metrics: { textfile: "$WORK/metrics/sensorwatch.prom", interval: "200ms" },
}
JSON
mkdir -p "$WORK/state" "$WORK/metrics"
"$BIN" sensors --config "$WORK/sensorwatch.json5" >"$WORK/sensors.txt"
cat "$WORK/sensors.txt"
grep -q '^hwmon:coretemp-virtual-0/temp1  *Package id 0  *temperature  45 °C (max 80 °C, crit 100 °C)$' "$WORK/sensors.txt" \
    || fail "sensors table"
STATE_DIRECTORY=$WORK/state "$BIN" run --config "$WORK/sensorwatch.json5" 2>"$WORK/stderr" &
pid=$!
wait_for "the metrics file" 100 test -s "$WORK/metrics/sensorwatch.prom"
put "$h/hwmon0/temp1_input" 101000
put "$h/hwmon2/temp1_input" 61000
wait_for "the firing entries" 100 has_state firing 3
put "$h/hwmon0/temp1_input" 96000
# The later event: the metrics file, written after the rules saw the sample, shows 96 °C.
wait_for "the metrics file with 96 °C" 100 grep -qE '^sensorwatch_temperature_celsius\{sensor="hwmon:coretemp-virtual-0/temp1"[,}].* 96$' "$WORK/metrics/sensorwatch.prom"
has_state resolved && fail "resolved above crit_hyst (96 °C > 95 °C)"
put "$h/hwmon0/temp1_input" 95000
wait_for "the resolved entry" 100 has_state resolved 1
lint=$(promtool check metrics <"$WORK/metrics/sensorwatch.prom" 2>&1) || fail "promtool check metrics: $lint"
[ -z "$lint" ] || fail "promtool check metrics: $lint"
grep -q '^sensorwatch_temperature_limit_celsius{sensor="hwmon:nvme-virtual-0/temp1",limit="crit"} 84.85$' "$WORK/metrics/sensorwatch.prom" \
    || fail "no nvme crit series: $(grep limit "$WORK/metrics/sensorwatch.prom")"
grep -q 'hwmon:nvme-virtual-0/temp2",limit=' "$WORK/metrics/sensorwatch.prom" && fail "an ignored limit is a series"
kill -TERM "$pid"
wait "$pid" || fail "run exited with $? on SIGTERM"

firing=$(journal_json ALERT_STATE=firing ALERT_RULE=too-hot)
expect_field "$firing" MESSAGE "too-hot firing: hwmon:coretemp-virtual-0/temp1 (Package id 0) 101 °C above 100 °C (crit)"
expect_field "$firing" ALERT_LIMIT crit
expect_field "$firing" ALERT_THRESHOLD 100
expect_field "$firing" PRIORITY 2
resolved=$(journal_json ALERT_STATE=resolved ALERT_RULE=too-hot)
expect_field "$resolved" SENSOR_VALUE 95
[ "$(count_state firing ALERT_RULE=too-hot)" = 1 ] || fail "too-hot fired for a sensor without crit"
warm=$(journal_json ALERT_STATE=firing ALERT_RULE=warm SENSOR_ID=hwmon:nct6798-virtual-0/temp1)
expect_field "$warm" MESSAGE "warm firing: hwmon:nct6798-virtual-0/temp1 (SYSTIN) 61 °C above 60 °C"
expect_field "$warm" ALERT_LIMIT "<missing>"
warm=$(journal_json ALERT_STATE=firing ALERT_RULE=warm SENSOR_ID=hwmon:coretemp-virtual-0/temp1)
expect_field "$warm" ALERT_LIMIT max
journalctl --no-pager -o verbose -t sensorwatch ALERT_RULE=too-hot ALERT_STATE=firing | sed -n '1,40p'
note "limit rules fire at each chip's own limit; entries name it"
"$BIN" history --rule too-hot >"$WORK/history.txt"
grep -q ' too-hot firing hwmon:coretemp-virtual-0/temp1 (Package id 0) 101 °C threshold 100 °C (crit) \[critical\]$' "$WORK/history.txt" \
    || fail "history: $(cat "$WORK/history.txt")"
[ "$("$BIN" history --json --rule too-hot | jq -r .limit | paste -sd,)" = "crit,crit" ] \
    || fail "history --json limit: $("$BIN" history --json --rule too-hot)"
note "history names the limit"
