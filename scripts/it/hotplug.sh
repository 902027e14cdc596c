#!/usr/bin/env bash
# Zones that appear and go while `run` runs (SPEC §20), in a written thermal tree at an
# interval of 1 s, against a private journald: a zone that appears is read within 2 s (its
# hot reading fires) with one `appeared` notice; when it goes, one `gone` notice within 2 s,
# its firing alert resolved with ALERT_REASON=gone and no value, no read-failure entry and
# no `stale` firing for it (a canary zone that stops reading goes stale meanwhile: the time
# has passed), and it leaves the metrics and the status file; it comes back under the same id, appeared again. A directory comes and goes
# with one rename, as a device's does in sysfs.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

T=$WORK/thermal
OUT=$WORK/outside
mkdir -p "$T" "$OUT"
zone "$T/thermal_zone0" x86_pkg_temp 50000
zone "$T/thermal_zone2" canary 50000
# Built outside the tree, so it appears whole.
zone "$OUT/thermal_zone1" iwlwifi_1 90000
mkdir -p "$WORK/metrics"
# Whether the metrics file and the status file name the zone.
in_metrics() { grep -q 'sensor="thermal:iwlwifi_1"' "$WORK/metrics/sensorwatch.prom" 2>/dev/null; }
in_status() { grep -q 'thermal:iwlwifi_1' "$WORK/status.json" 2>/dev/null; }
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "1s",
  sources: [ { type: "thermal", root: "$T" } ],
  metrics: { textfile: "$WORK/metrics/sensorwatch.prom", interval: "1s" },
  statusFile: "$WORK/status.json",
  rules: [ { name: "hot", sensor: "*", above: 80, severity: "warning" },
           { name: "silent", sensor: "*", stale: "2s", severity: "warning" } ] }
J
start_journald
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
alert() { journal_messages | grep -qxF -- "$1"; }
alerts() { journal_messages | grep -cxF -- "$1" || true; }
notes() { journal_notes | grep -cxF -- "$1" || true; }
# Milliseconds from SINCE_MS to the Nth journal entry matching MATCH...
latency_nth() { # SINCE_MS N MATCH...
    local since=$1 n=$2 us
    shift 2
    us=$(journal_json "$@" | sed -n "${n}p" | jq -r .__REALTIME_TIMESTAMP)
    echo $(( us / 1000 - since ))
}
within_2s() { # WHAT MS
    note "$1 after $2 ms"
    [ "$2" -le 2000 ] || fail "$1 after $2 ms (SPEC §20: within 2 s)"
}

put "$T/thermal_zone0/temp" 85000
wait_for "the running daemon's first alert" 100 journal_has ALERT_RULE=hot ALERT_STATE=firing SENSOR_LABEL=x86_pkg_temp

# Appear: read within 2 s (its hot value fires), one notice.
t0=$(now_ms)
mv "$OUT/thermal_zone1" "$T/thermal_zone1"
wait_for "the new zone's first reading" 50 alert "hot firing: thermal:iwlwifi_1 (iwlwifi_1) 90 °C above 80 °C"
within_2s "the new zone's first reading" "$(latency_nth "$t0" 1 ALERT_RULE=hot ALERT_STATE=firing SENSOR_ID=thermal:iwlwifi_1)"
wait_for "the appeared notice" 50 has_note '^5 sensor thermal:iwlwifi_1 \(iwlwifi_1\) appeared$'
appeared=$(journal_json SENSOR_ID=thermal:iwlwifi_1 SENSOR_STATE=appeared)
[ "$(grep -c . <<<"$appeared")" -eq 1 ] || fail "expected one appeared entry, got: $appeared"
expect_field "$appeared" MESSAGE_ID 3c8d5e0a9b2f4d17a6e1c4b7f0925d38
expect_field "$appeared" SENSOR_LABEL iwlwifi_1

wait_for "the new zone in the metrics" 50 in_metrics
wait_for "the new zone in the status file" 50 in_status

# Go: gone within 2 s, its alert resolved as gone; the canary stops reading at once.
t0=$(now_ms)
mv "$T/thermal_zone1" "$OUT/thermal_zone1"
put "$T/thermal_zone2/temp" abcde
wait_for "the gone zone's alert resolved" 50 alert "hot resolved: thermal:iwlwifi_1 (iwlwifi_1) sensor gone"
within_2s "gone" "$(latency_nth "$t0" 1 SENSOR_ID=thermal:iwlwifi_1 SENSOR_STATE=gone)"
resolved=$(journal_json ALERT_STATE=resolved SENSOR_ID=thermal:iwlwifi_1)
expect_field "$resolved" ALERT_REASON gone
expect_field "$resolved" SENSOR_VALUE "<missing>"
gone=$(journal_json SENSOR_ID=thermal:iwlwifi_1 SENSOR_STATE=gone)
[ "$(grep -c . <<<"$gone")" -eq 1 ] || fail "expected one gone entry, got: $gone"
expect_field "$gone" MESSAGE_ID a71f2c6e58d34b09b3e7d1c0f46a8e25
expect_field "$gone" PRIORITY 5
# It leaves the metrics and the status file.
wait_for "the gone zone out of the metrics" 50 eval '! in_metrics'
wait_for "the gone zone out of the status file" 50 eval '! in_status'
# The canary's stale fires 2 s after its last reading: the gone zone's would have by now.
wait_for "the canary's stale alert" 60 alert "silent firing: thermal:canary (canary) no reading for 2s"
[ "$(alerts "silent firing: thermal:iwlwifi_1 (iwlwifi_1) no reading for 2s")" -eq 0 ] \
    || fail "a stale alert fired for the gone zone: $(journal_messages)"
if journal_notes | grep -F 'thermal:iwlwifi_1' | grep -q 'read failed'; then
    fail "read-failure entries for the gone zone: $(journal_notes)"
fi

# Back under the same id: appeared again, read again (fires again: it resolved as gone).
t0=$(now_ms)
mv "$OUT/thermal_zone1" "$T/thermal_zone1"
wait_for "the returning zone's reading" 50 eval '[ "$(alerts "hot firing: thermal:iwlwifi_1 (iwlwifi_1) 90 °C above 80 °C")" -eq 2 ]'
within_2s "the returning zone's first reading" "$(latency_nth "$t0" 2 ALERT_RULE=hot ALERT_STATE=firing SENSOR_ID=thermal:iwlwifi_1)"
wait_for "the second appeared notice" 50 has_note '^5 sensor thermal:iwlwifi_1 \(iwlwifi_1\) appeared$' 2
[ "$(notes "5 sensor thermal:iwlwifi_1 (iwlwifi_1) gone")" -eq 1 ] || fail "gone logged more than once: $(journal_notes)"

stop_within_1s "$pid" TERM
pid=
journal_messages | grep 'iwlwifi_1' >"$WORK/journal" || true
cat >"$WORK/expected" <<'X'
hot firing: thermal:iwlwifi_1 (iwlwifi_1) 90 °C above 80 °C
hot resolved: thermal:iwlwifi_1 (iwlwifi_1) sensor gone
hot firing: thermal:iwlwifi_1 (iwlwifi_1) 90 °C above 80 °C
X
diff -u "$WORK/expected" "$WORK/journal" || fail "the hotplugged zone's alerts differ"
note "appeared, gone and back: one notice each, its alert resolved as gone, no fault, no stale"
