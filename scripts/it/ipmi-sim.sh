#!/usr/bin/env bash
# A BMC's sensors (SPEC §23) against OpenIPMI's simulator on 127.0.0.1 (ports IPMI_PORTS + 10 to + 19),
# with libfreeipmi opened at run time: `sensors` agrees with `ipmi-sensors
# --output-sensor-thresholds` and `ipmitool sensor` on every value and threshold; `check`
# refuses a password in the config and a password file of mode 0644, and warns without the
# library (SENSORWATCH_FREEIPMI_LIBRARY pointing nowhere); a wrong password and an
# unreachable port are faults in words (the latter within the timeout, not the interval);
# under `run` with a private journald, a temperature raised past its SDR's upper critical
# fires the shipped `above: "crit"` rule and resolves when lowered, a fan below its lower
# critical fires `below: "lcrit"`, the PSU's failure bit fires `alarm: true`; a System Event
# Log record added on the console is one journal entry, not again after a restart, and none
# of the BMC's sessions is left open after a stop; the password shows in none of the status
# and metrics files, the state file, stderr and the journal; ldd shows no libfreeipmi.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_journal_test
source "$(dirname "$0")/lib/ipmi.sh"
need_ipmi
trap 'stop_sims; stop_journald' EXIT
start_journald

P=$((IPMI_PORTS + 10))
start_sim $P
BMC=127.0.0.1:$P
write_password "$WORK/bmc.pass"
cfg() { # FILE HOST [PASSWORDFILE] [TIMEOUT]
    cat >"$1" <<JSON
{
  sources: [ { type: "ipmi", hosts: ["$2"], user: "admin", passwordFile: "${3:-$WORK/bmc.pass}", privilege: "admin",
               workarounds: ["opensesspriv"], interval: "1s", timeout: "${4:-2s}" } ],
  metrics: { textfile: "$WORK/metrics/sensorwatch.prom", interval: "1s" },
  rules: [
    { name: "too-hot", sensor: "ipmi:*", above: "crit", severity: "critical" },
    { name: "fan-low", quantity: "fan", below: "lcrit", severity: "critical" },
    { name: "hw-alarm", alarm: true, severity: "warning" },
  ],
}
JSON
}
mkdir -p "$WORK/state" "$WORK/run" "$WORK/metrics"
cfg "$WORK/c.json5" "$BMC"
export STATE_DIRECTORY=$WORK/state RUNTIME_DIRECTORY=$WORK/run

# --- check: secrets and the library ------------------------------------------------------
"$BIN" check --config "$WORK/c.json5" >/dev/null || fail "check of a good ipmi config"
printf 'secret\n' >"$WORK/open.pass"; chmod 644 "$WORK/open.pass"
cfg "$WORK/open.json5" "$BMC" "$WORK/open.pass"
set +e; out=$("$BIN" check --config "$WORK/open.json5" 2>&1); rc=$?; set -e
[ "$rc" = 78 ] || fail "check with a 0644 password file exited $rc"
grep -q 'passwordFile: "[^"]*open.pass" has mode 0644: a password file must have mode 0600 or 0400 (chmod 600)' <<<"$out" \
    || fail "0644 message: $out"
sed 's/passwordFile: [^,]*,/password: "hunter2",/' "$WORK/c.json5" >"$WORK/pw.json5"
set +e; out=$("$BIN" check --config "$WORK/pw.json5" 2>&1); rc=$?; set -e
[ "$rc" = 78 ] && grep -q 'a password does not belong in the configuration' <<<"$out" || fail "password in config: $rc $out"
grep -q hunter2 <<<"$out" && fail "check repeated the password"
out=$(SENSORWATCH_FREEIPMI_LIBRARY=/nonexistent/libfreeipmi.so.17 "$BIN" check --config "$WORK/c.json5" 2>&1) \
    || fail "check failed without the library: $out"
grep -q 'cannot load libfreeipmi (install the package libfreeipmi17)' <<<"$out" || fail "no-library warning: $out"
out=$(SENSORWATCH_FREEIPMI_LIBRARY=/nonexistent/libfreeipmi.so.17 "$BIN" sensors --config "$WORK/c.json5" --json)
[ "$(jq -r '.[0].error' <<<"$out")" = "$BMC: cannot load libfreeipmi (install the package libfreeipmi17): /nonexistent/libfreeipmi.so.17: cannot open shared object file: No such file or directory" ] \
    || fail "no-library fault: $out"
# Loaded at run time: the binary does not link libfreeipmi (package-deb.sh: Suggests, not Depends).
ldd "$BIN" | grep -q freeipmi && fail "the binary links libfreeipmi: $(ldd "$BIN" | grep freeipmi)"
note "check: secrets refused in words, the missing library named; ldd shows no libfreeipmi"

# --- agreement with ipmi-sensors and ipmitool ----------------------------------------------
"$BIN" sensors --config "$WORK/c.json5" --json >"$WORK/ours.json"
"$BIN" sensors --config "$WORK/c.json5"
# name,value,lc,lnc,unc,uc,unr (lower non-recoverable has no name of SPEC §16: not compared)
jq -r '.[] | select(.quantity != "state") | [.label, .value, .limits.lcrit, .limits.min, .limits.max, .limits.crit, .limits.emergency]
       | map(if . == null then "na" elif type == "number" then (. * 100 | round / 100 | tostring) else . end) | join(",")' \
    "$WORK/ours.json" | sort >"$WORK/ours.csv"
mkdir -m 700 -p "$WORK/sdr"
ipmi-sensors -h "$BMC" -u admin -p secret -D LAN_2_0 -W opensesspriv -l admin --sdr-cache-directory="$WORK/sdr" --quiet-cache \
    --output-sensor-thresholds --comma-separated-output --no-header-output \
    | awk -F, '$4 != "N/A" { n = split("4 7 8 9 10 11", c, " "); s = $2
        for (i = 1; i <= n; i++) { v = $(c[i]); s = s "," (v == "N/A" ? "na" : v + 0) } print s }' | sort >"$WORK/freeipmi.csv"
diff "$WORK/freeipmi.csv" "$WORK/ours.csv" || fail "sensors and ipmi-sensors disagree (above: theirs < > ours)"
ipmitool -I lanplus -C 3 -H 127.0.0.1 -p $P -U admin -P secret sensor \
    | awk -F'|' '{ for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i) } $3 != "discrete" { s = $1
        n = split("2 6 7 8 9 10", c, " "); for (i = 1; i <= n; i++) { v = $(c[i]); s = s "," (v == "na" ? "na" : v + 0) } print s }' \
    | sort >"$WORK/ipmitool.csv"
diff "$WORK/ipmitool.csv" "$WORK/ours.csv" || fail "sensors and ipmitool disagree (above: theirs < > ours)"
[ "$(wc -l <"$WORK/ours.csv")" = 5 ] || fail "expected 5 sensors with values: $(cat "$WORK/ours.csv")"
[ "$(jq -r '.[] | select(.label == "PSU1 Status") | [.quantity, (.value | tostring), (.state | join(";"))] | join(",")' "$WORK/ours.json")" \
    = "state,null,Presence detected" ] || fail "PSU1 Status: $(cat "$WORK/ours.json")"
note "every value and threshold agrees with ipmi-sensors and ipmitool"
# A threshold set on the BMC after its SDR was written: read from the BMC at discovery.
simctl $P 'sensor_set_threshold 0x20 0 1 readable 111000 50 44 40 0 0 0'
[ "$("$BIN" sensors --config "$WORK/c.json5" --json | jq -r '.[] | select(.label == "Inlet Temp") | .limits.crit')" = 44 ] \
    || fail "the BMC's own threshold was not read"
simctl $P 'sensor_set_threshold 0x20 0 1 readable 111000 50 45 40 0 0 0'
note "thresholds come from the BMC, not only its SDR"

# A BMC whose SDR lists a sensor it does not have (it answers Get Sensor Reading with
# completion code 0xCB) and one owned by another controller (0x22: not read without
# bridging, as FreeIPMI's tools do not by default): each its own fault in words, the others
# read as before, and ipmi-sensors has no reading for either.
cp -r "$SIM" "$WORK/sim-extra-fixture"
sdr_record() { # NUMBER OWNER NAME
    printf 'sdr type 1\n\tsensor_owner_id\t%s\n\tsensor_owner_lun\t0\n\tchannel_number\t0\n\tsensor_number\t%s\n' "$2" "$1"
    printf '\tentity_id\tsystem_board\n\tentity_instance\t%s\n\tsensor_type\tTemperature\n\tevent_reading_type_code\t1\n' "$1"
    printf '\tinit_scanning\ttrue\n\tdefault_sensor_scan_on\ttrue\n\tanalog_data_format\tunsigned\n\tbase_unit\tdegrees_C\n'
    printf '\tlinearization\tlinear\n\tm\t1\n\tb\t0\n\tr_exp\t0\n\tb_exp\t0\n\tid_string\t"%s"\nendsdr\n' "$3"
}
{ sdr_record 7 0x20 "Ghost Temp"; sdr_record 8 0x22 "Bridged Temp"; } >>"$WORK/sim-extra-fixture/sim.sdrs"
X=$((P + 2))
start_sim $X "$WORK/sim-extra-fixture"
cfg "$WORK/extra.json5" 127.0.0.1:$X
out=$("$BIN" sensors --config "$WORK/extra.json5" --json)
[ "$(jq -r '.[] | select(.label == "Ghost Temp") | .error' <<<"$out")" = "127.0.0.1:$X: reading unavailable" ] \
    || fail "a sensor the BMC lacks: $out"
[ "$(jq -r '.[] | select(.label == "Bridged Temp") | .error' <<<"$out")" = "127.0.0.1:$X: sensor not owned by BMC" ] \
    || fail "a sensor of another controller: $out"
[ "$(jq -r '.[] | select(.label == "Inlet Temp") | .value' <<<"$out")" = 25 ] || fail "the others beside them: $out"
ipmi-sensors -h 127.0.0.1:$X -u admin -p secret -D LAN_2_0 -W opensesspriv -l admin --sdr-cache-directory="$WORK/sdr" \
    --quiet-cache --comma-separated-output --no-header-output >"$WORK/extra-freeipmi.csv"
[ "$(awk -F, '$2 == "Ghost Temp" || $2 == "Bridged Temp" { print $4 }' "$WORK/extra-freeipmi.csv" | sort -u)" = N/A ] \
    || fail "ipmi-sensors read what we call unreadable: $(cat "$WORK/extra-freeipmi.csv")"
kill "$SIM_PID"
note "a sensor the BMC lacks and one of another controller are faults in words, as ipmi-sensors has no reading for them"

# --- a wrong password, an unreachable port ---------------------------------------------------
printf 'wrong\n' >"$WORK/wrong.pass"; chmod 600 "$WORK/wrong.pass"
cfg "$WORK/wrong.json5" "$BMC" "$WORK/wrong.pass"
out=$("$BIN" sensors --config "$WORK/wrong.json5" --json)
[ "$(jq -r '.[0] | .id + " " + .error' <<<"$out")" = "ipmi:$BMC $BMC: password refused" ] || fail "wrong password: $out"
grep -q wrong <<<"$(jq -r '.[0].error' <<<"$out" | sed "s/$BMC//")" && fail "the password shows in the error"
cfg "$WORK/gone.json5" 127.0.0.1:$((P + 9)) "" 1s
sed -i "s|passwordFile: \"\"|passwordFile: \"$WORK/bmc.pass\"|" "$WORK/gone.json5"
# An interval longer than the timeout: the session's own timeout covers the rest between
# polls, but a BMC that does not answer still fails the open within the timeout (~1.2 s).
sed -i 's|interval: "1s"|interval: "10s"|' "$WORK/gone.json5"
start=$(date +%s.%N)
out=$("$BIN" sensors --config "$WORK/gone.json5" --json)
took=$(echo "$(date +%s.%N) - $start" | bc)
[ "$(jq -r '.[0].error' <<<"$out")" = "127.0.0.1:$((P + 9)): session timeout after 1 s" ] || fail "unreachable: $out"
[ "$(echo "$took < 4" | bc)" = 1 ] || fail "an unreachable BMC (timeout 1 s, interval 10 s) took ${took}s"
note "faults in words: password refused, session timeout (unreachable: ${took}s, timeout 1 s)"

# --- run: limit rules, the alarm, the event log ------------------------------------------------
# The wrong password left a half-open session on the simulator (its RMCP+ open succeeded
# before the password was refused): counted before, so what run holds is what it adds.
base=$(sessions_held $P)
simctl $P 'sel_add 0x20 0x02 0x00 0x00 0x00 0x00 0x20 0x00 0x04 0x01 0x01 0x01 0x07 0xff 0xff'
"$BIN" run --config "$WORK/c.json5" 2>"$WORK/stderr" &
pid=$!
has_value() { jq -e --arg id "ipmi:$BMC/$1" '.sensors[] | select(.id == $id and .ok)' "$WORK/run/status.json" >/dev/null 2>&1; }
wait_for "the first reading" 100 has_value Inlet_Temp
# A discrete sensor is its states' words, not its state bits (SPEC §23): in the file and the table.
wait_for "the PSU's state" 100 has_value PSU1_Status
psu=$(jq -c --arg id "ipmi:$BMC/PSU1_Status" '.sensors[] | select(.id == $id) | [.value, .state]' "$WORK/run/status.json")
[ "$psu" = '[null,["Presence detected"]]' ] || fail "status.json's PSU1_Status: $psu"
"$BIN" status --file "$WORK/run/status.json" | grep -q "PSU1 Status  Presence detected  " \
    || fail "status: $("$BIN" status --file "$WORK/run/status.json")"
simctl $P 'sensor_set_value 0x20 0 1 47 0' 'sensor_set_value 0x20 0 3 5 0' 'sensor_set_bit 0x20 0 6 1 1 0'
wait_for "three firing entries" 100 has_state firing 3
simctl $P 'sensor_set_value 0x20 0 1 30 0' 'sensor_set_value 0x20 0 3 80 0' 'sensor_set_bit 0x20 0 6 1 0 0'
wait_for "three resolved entries" 100 has_state resolved 3
simctl $P 'sel_add 0x20 0x02 0x00 0x00 0x00 0x00 0x20 0x00 0x04 0x01 0x01 0x01 0x09 0xff 0xff'
wait_for "the event log entry" 100 journal_has IPMI_BMC="$BMC"
[ "$(sessions_held $P)" = $((base + 1)) ] || fail "run holds $(($(sessions_held $P) - base)) sessions, not 1"
metrics_written() { grep -q "ipmi:$BMC/Inlet_Temp" "$WORK/metrics/sensorwatch.prom" 2>/dev/null; }
wait_for "the BMC's sensors in the metrics" 100 metrics_written
# Each file must be there: a missing one would pass the search unseen. The status and
# metrics files are looked at while the daemon runs (it takes them away at its stop).
no_password_in() { [ -e "$1" ] || fail "no $1 to look for the password in"; ! grep -q secret "$1" || fail "the password shows in $1"; }
for f in "$WORK/run/status.json" "$WORK/metrics/sensorwatch.prom"; do no_password_in "$f"; done
kill -TERM "$pid"
wait "$pid" || fail "run exited with $? on SIGTERM"
[ "$(sessions_held $P)" = "$base" ] || fail "a session is left open after the stop"
# The password ("secret", from the password file) is nowhere the daemon writes: its state
# and stderr once it stopped (the status and metrics files above, while it ran).
for f in "$WORK/stderr" "$WORK/state/state.json"; do no_password_in "$f"; done
journal_json | grep -q secret && fail "the password shows in the journal"

f=$(journal_json ALERT_STATE=firing ALERT_RULE=too-hot)
expect_field "$f" MESSAGE "too-hot firing: ipmi:$BMC/Inlet_Temp (Inlet Temp) 47 °C above 45 °C (crit)"
expect_field "$f" ALERT_LIMIT crit
f=$(journal_json ALERT_STATE=firing ALERT_RULE=fan-low)
expect_field "$f" MESSAGE "fan-low firing: ipmi:$BMC/FAN1 (FAN1) 300 rpm below 600 rpm (lcrit)"
f=$(journal_json ALERT_STATE=firing ALERT_RULE=hw-alarm)
expect_field "$f" SENSOR_ID "ipmi:$BMC/PSU1_Status"
expect_field "$f" MESSAGE "hw-alarm firing: ipmi:$BMC/PSU1_Status (PSU1 Status) in hardware alarm (alarm): Power Supply Failure detected"
[ "$(count_state firing)" = 3 ] || fail "expected 3 firing entries, got $(count_state firing)"
e=$(journal_json IPMI_BMC="$BMC")
[ "$(grep -c . <<<"$e")" = 1 ] || fail "the record there at start was logged: $e"
journal_has MESSAGE="$BMC event log: 1 record there at the first read, counted, not logged" || fail "no count of the first read's records"
expect_field "$e" MESSAGE "$BMC event log: Inlet Temp: Upper Critical - going high"
expect_field "$e" MESSAGE_ID f94fedf0fe46423d8e613b921bf8e25a
expect_field "$e" PRIORITY 2
expect_field "$e" IPMI_SEL_ID 2
expect_field "$e" IPMI_SEL_SENSOR "Inlet Temp"
expect_field "$e" IPMI_SEL_EVENT "Upper Critical - going high"
[ "$(jq -r '.ipmiEventLog["'"$BMC"'"]' "$WORK/state/state.json")" = 2 ] || fail "state.json: $(cat "$WORK/state/state.json")"
note "above: crit fired and resolved, fan below lcrit, PSU failure as an alarm, the new SEL record logged once; status shows the PSU's state in words; the password in none of status, metrics, state, stderr, journal"

# A record added while the daemon is down is logged at the restart; the old ones are not again.
simctl $P 'sel_add 0x20 0x02 0x00 0x00 0x00 0x00 0x20 0x00 0x04 0x04 0x03 0x01 0x02 0xff 0xff'
"$BIN" run --config "$WORK/c.json5" 2>>"$WORK/stderr" &
pid=$!
wait_for "the record added while stopped" 100 journal_has IPMI_BMC="$BMC" IPMI_SEL_ID=3
kill -TERM "$pid"
wait "$pid" || fail "run exited with $? on SIGTERM"
[ "$(journal_json IPMI_BMC="$BMC" | grep -c .)" = 2 ] || fail "records logged twice: $(journal_json IPMI_BMC="$BMC")"
expect_field "$(journal_json IPMI_SEL_ID=3)" MESSAGE "$BMC event log: FAN1: Lower Critical - going low"
note "a restart logs no record twice"

# record carries the BMC's sensors, limits and alarms, so simulate and test cover BMC rules.
simctl $P 'sensor_set_bit 0x20 0 6 1 1 0' 'sensor_set_value 0x20 0 1 47 0'
"$BIN" record --config "$WORK/c.json5" --duration 2s --output "$WORK/bmc.json" 2>/dev/null || fail "record"
jq -e --arg id "ipmi:$BMC/Inlet_Temp" '.sensors[] | select(.id == $id) | .limits.crit == 45' "$WORK/bmc.json" >/dev/null \
    || fail "recorded limits: $(cat "$WORK/bmc.json")"
jq -e --arg id "ipmi:$BMC/PSU1_Status" '.sensors[] | select(.id == $id) | .quantity == "state" and (.alarms | length) > 0' \
    "$WORK/bmc.json" >/dev/null || fail "recorded alarms: $(cat "$WORK/bmc.json")"
"$BIN" simulate --config "$WORK/c.json5" --scenario "$WORK/bmc.json" >"$WORK/simulated.txt" || fail "simulate"
grep -q "too-hot firing: ipmi:$BMC/Inlet_Temp (Inlet Temp) 47 °C above 45 °C (crit)" "$WORK/simulated.txt" \
    && grep -q "hw-alarm firing: ipmi:$BMC/PSU1_Status (PSU1 Status) in hardware alarm (alarm)" "$WORK/simulated.txt" \
    || fail "simulate of the recording: $(cat "$WORK/simulated.txt")"
# And `test` runs rule tests on it: the BMC's alerts fire as expected at the recording's second tick.
cat >"$WORK/bmc-test.json5" <<JSON
{ config: "c.json5",
  tests: [ { name: "the recorded BMC fires too-hot and hw-alarm", scenario: "bmc.json",
             firing: [ { at: "1s", alerts: [ { rule: "too-hot", sensor: "ipmi:$BMC/Inlet_Temp" },
                                             { rule: "hw-alarm", sensor: "ipmi:$BMC/PSU1_Status" } ] } ] } ] }
JSON
out=$("$BIN" test "$WORK/bmc-test.json5") || fail "test of the recording: $out"
grep -q "^1 passed, 0 failed" <<<"$out" || fail "test of the recording: $out"
note "record carries the BMC's limits and alarms; simulate fires the same rules, and test checks them"
