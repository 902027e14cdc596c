#!/usr/bin/env bash
# `sensorwatch run` against a private journald: every alert event is one journal entry with
# the SPEC §7 fields and priorities, `journalctl ALERT_RULE=` finds them, `history` prints them.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_journal_test

start_journald
write_scenario "$WORK/scenario.json5" "[[0, 50], [1, 85], [2, 86], [3, 50]]"
write_config "$WORK/sensorwatch.json5" "scenario.json5"
mkdir -p "$WORK/state"
STATE_DIRECTORY=$WORK/state "$BIN" run --config "$WORK/sensorwatch.json5" 2>"$WORK/stderr" &
pid=$!
wait_for "the resolved entry" 150 has_state resolved
kill -TERM "$pid"
wait "$pid" || fail "run exited with $? on SIGTERM"

journal_json >"$WORK/entries.json"
[ "$(count_state firing)" = 1 ] || fail "expected one firing entry, got $(count_state firing)"
[ "$(count_state resolved)" = 1 ] || fail "expected one resolved entry"

# The firing entry, field by field (SPEC §7).
firing=$(journal_json ALERT_STATE=firing)
expect_field "$firing" MESSAGE "cpu-hot firing: sim:cpu (CPU package) 85 °C above 80 °C"
expect_field "$firing" PRIORITY 2
expect_field "$firing" SYSLOG_IDENTIFIER sensorwatch
expect_field "$firing" MESSAGE_ID f96e031d73b04032b5e2b8ab87332769
expect_field "$firing" ALERT_RULE cpu-hot
expect_field "$firing" ALERT_STATE firing
expect_field "$firing" ALERT_SEVERITY critical
expect_field "$firing" ALERT_THRESHOLD 80
expect_field "$firing" SENSOR_ID sim:cpu
expect_field "$firing" SENSOR_LABEL "CPU package"
expect_field "$firing" SENSOR_QUANTITY temperature
expect_field "$firing" SENSOR_VALUE 85
expect_field "$firing" SENSOR_UNIT "°C"
# No CODE_* on events: they would name the sink's one line, not what made the event.
printf '%s' "$firing" | grep -q '"CODE_FILE"' && fail "an alert event carries CODE_FILE"
resolved=$(journal_json ALERT_STATE=resolved)
expect_field "$resolved" PRIORITY 5
expect_field "$resolved" MESSAGE_ID e4eda26d66284e999fe0af5ec5782b44
expect_field "$resolved" SENSOR_VALUE 50
expect_field "$resolved" MESSAGE "cpu-hot resolved: sim:cpu (CPU package) 50 °C, no longer above 80 °C"

# What users type.
[ "$(journalctl --no-pager -o cat ALERT_RULE=cpu-hot | grep -c .)" = 2 ] || fail "journalctl ALERT_RULE=cpu-hot"
[ "$(journalctl --no-pager -o cat -t sensorwatch -p warning ALERT_RULE=cpu-hot)" \
    = "cpu-hot firing: sim:cpu (CPU package) 85 °C above 80 °C" ] || fail "journalctl -p warning"

# history reads them back, oldest first.
"$BIN" history >"$WORK/history.txt"
grep -q ' cpu-hot firing sim:cpu (CPU package) 85 °C threshold 80 °C \[critical\]$' <(sed -n 1p "$WORK/history.txt") \
    || fail "history line 1: $(sed -n 1p "$WORK/history.txt")"
grep -q ' cpu-hot resolved sim:cpu (CPU package) 50 °C threshold 80 °C \[critical\]$' <(sed -n 2p "$WORK/history.txt") \
    || fail "history line 2: $(sed -n 2p "$WORK/history.txt")"
[ "$(grep -c . "$WORK/history.txt")" = 2 ] || fail "history printed $(grep -c . "$WORK/history.txt") lines"
[ "$("$BIN" history --json --rule cpu-hot --since 1h | jq -r .event | paste -sd,)" = "firing,resolved" ] \
    || fail "history --json --rule --since"
# Every event names the host that logged it, in the readable form and in JSON.
host=$(hostname)
grep -q "^[0-9-]* [0-9:]* $host cpu-hot firing " "$WORK/history.txt" || fail "history line lacks the host $host"
[ "$("$BIN" history --json | jq -r .host | sort -u)" = "$host" ] || fail "history --json: host is not $host"
[ "$("$BIN" history --host "$host" | grep -c .)" = 2 ] || fail "history --host $host"
[ -z "$("$BIN" history --host "no-such-$host")" ] || fail "history --host no-such-host printed events"
[ -z "$("$BIN" history --rule no-such-rule)" ] || fail "history --rule no-such-rule printed events"
[ -z "$("$BIN" history --sensor sim:none)" ] || fail "history --sensor sim:none printed events"
note "journal entries, journalctl matches and history agree"
