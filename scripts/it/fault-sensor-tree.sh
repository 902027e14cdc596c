#!/usr/bin/env bash
# Sensors that fail and change under a running daemon, in written sysfs trees: a `temp` that
# turns to garbage and then empty (one warning when it starts failing, one notice when it
# reads again, no alert on a made-up value), a zone directory that goes and comes back (its
# alert resolved as gone, SPEC §20), and a hwmon chip that appears after start (written file
# by file; the discovery a SIGHUP triggers picks it up if a poll saw it half made). The
# alerts in the journal are exactly the hand-derived list: none lost, none twice.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

# Every value is five digits and a newline, written in place by put.
T=$WORK/thermal H=$WORK/hwmon
zone "$T/thermal_zone0" cpu 50000
zone "$T/thermal_zone1" gpu 50000
mkdir -p "$H/hwmon0"
echo board >"$H/hwmon0/name"
put "$H/hwmon0/temp1_input" 40000
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "100ms",
  sources: [ { type: "thermal", root: "$T" }, { type: "hwmon", root: "$H" } ],
  rules: [ { name: "hot", sensor: "*", above: 80, severity: "warning" } ] }
J
start_journald
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
alert() { journal_messages | grep -qxF -- "$1"; }
reloads() { journal_notes | grep -c '^6 configuration reloaded' || true; }
# SIGHUP, then wait until that reload (the Nth) has been logged.
reload() {
    local n
    n=$(reloads)
    kill -HUP "$pid"
    wait_for "reload $((n + 1))" 100 eval '[ "$(reloads)" -gt '"$n"' ]'
}

put "$T/thermal_zone0/temp" 85000
wait_for "zone0 firing" 100 alert "hot firing: thermal:cpu (cpu) 85 °C above 80 °C"

# Garbage, then empty: one warning naming the sensor and what was read, no alert either way.
put "$T/thermal_zone0/temp" abcde
wait_for "the read fault of zone0" 100 has_note '^4 sensor thermal:cpu \(cpu\) read failed: '
truncate -s 0 "$T/thermal_zone0/temp"
# zone1 is read after zone0 in the same cycle: its alert proves zone0 was read empty.
put "$T/thermal_zone1/temp" 81000
wait_for "zone1 firing" 100 alert "hot firing: thermal:gpu (gpu) 81 °C above 80 °C"
# A later cycle reads zone1 at 82, still firing: no new event. It is read, at the latest, in
# the cycle that resolves zone0 (zone0 first), and settle's alerts below come after it.
put "$T/thermal_zone1/temp" 82000
put "$T/thermal_zone0/temp" 70000
wait_for "zone0 resolved" 100 alert "hot resolved: thermal:cpu (cpu) 70 °C, no longer above 80 °C"
wait_for "zone0 reading again" 100 has_note '^5 sensor thermal:cpu \(cpu\) reads again$'
journal_notes | grep '^[0-9] sensor ' >"$WORK/faults"
[ "$(cat "$WORK/faults")" = '4 sensor thermal:cpu (cpu) read failed: not a number: "abcde"
5 sensor thermal:cpu (cpu) reads again' ] \
    || fail "expected one warning (not a number: \"abcde\") and one notice for zone0, got:
$(cat "$WORK/faults")"
fault=$(journal_json SENSOR_STATE=failing)
[ "$(jq -r .SENSOR_ID <<<"$fault")" = thermal:cpu ] || fail "the fault entry lacks SENSOR_ID: $fault"

# Two alerts of zone0 (hot, then cool), so alerts of other sensors follow in a known order.
settle() {
    local n
    n=$(journal_messages | grep -c .)
    put "$T/thermal_zone0/temp" 90000
    wait_for "zone0 hot again" 100 eval '[ "$(journal_messages | grep -c .)" -gt '"$n"' ]'
    put "$T/thermal_zone0/temp" 70000
    wait_for "zone0 cool again" 100 eval '[ "$(journal_messages | grep -c .)" -gt '"$((n + 1))"' ]'
}

# zone1 (firing at 82) goes and comes back cool: its alert resolves as gone at once, once
# (SPEC §20), and it is read again under the same id. The directory goes and comes with one
# rename, as a device's does in sysfs.
mv "$T/thermal_zone1" "$WORK/zone1"
wait_for "zone1 resolved as gone" 100 alert "hot resolved: thermal:gpu (gpu) sensor gone"
settle
put "$WORK/zone1/temp" 50000
mv "$WORK/zone1" "$T/thermal_zone1"
wait_for "zone1 back" 100 has_note '^5 sensor thermal:gpu \(gpu\) appeared$'

# A chip that appears after start, picked up by the discovery of the next reload.
mkdir -p "$H/hwmon1"
echo late >"$H/hwmon1/name"
echo "Late chip" >"$H/hwmon1/temp1_label"
put "$H/hwmon1/temp1_input" 95000
reload
wait_for "the late chip's alert" 100 alert "hot firing: hwmon:late-virtual-0/temp1 (Late chip) 95 °C above 80 °C"

stop_within_1s "$pid" TERM
pid=
cat >"$WORK/expected" <<'X'
hot firing: thermal:cpu (cpu) 85 °C above 80 °C
hot firing: thermal:gpu (gpu) 81 °C above 80 °C
hot resolved: thermal:cpu (cpu) 70 °C, no longer above 80 °C
hot resolved: thermal:gpu (gpu) sensor gone
hot firing: thermal:cpu (cpu) 90 °C above 80 °C
hot resolved: thermal:cpu (cpu) 70 °C, no longer above 80 °C
hot firing: hwmon:late-virtual-0/temp1 (Late chip) 95 °C above 80 °C
X
journal_messages >"$WORK/journal"
expect_same_alerts "$WORK/expected" "$WORK/journal"
diff -u "$WORK/expected" "$WORK/journal" || fail "alerts out of order"
[ -z "$(stderr_messages "$WORK/stderr")" ] || fail "alerts went to stderr with journald running"
note "faulty, vanished and late sensors: every alert once, faults reported once each way"
