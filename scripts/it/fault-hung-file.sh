#!/usr/bin/env bash
# One hung file blinds only its own sensor (SPEC §8). In one thermal source beside healthy
# zones: a zone whose `temp` is a FIFO (a read that blocks) and one whose `type` is (a
# discovery that blocks); in one hwmon source: a chip whose `temp2_label` is a FIFO and a
# chip whose `name` is. The healthy sensors of the same sources keep their interval, their
# alerts come on time and they never go stale; each hung sensor is a fault within 2 s with
# the reason, its stale rule fires; no thread piles up per tick; the FIFOs replaced by
# regular files read again after the next discovery (a reload asks for one), with a
# recovery entry; SIGTERM still stops the daemon within 1 s; `sensors` prints the hung
# sensors as failed reads instead of hanging.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

T=$WORK/thermal
zone "$T/thermal_zone0" x86_pkg_temp 45000
zone "$T/thermal_zone1" acpitz fifo
zone "$T/thermal_zone2" fifo 40000
zone "$T/thermal_zone3" pch_cannonlake 50000
H=$WORK/hwmon
mkdir -p "$H/hwmon0" "$H/hwmon1" "$H/hwmon2"
echo coretemp >"$H/hwmon0/name"
echo 45000 >"$H/hwmon0/temp1_input"; echo "Package id 0" >"$H/hwmon0/temp1_label"
echo 47000 >"$H/hwmon0/temp2_input"; mkfifo "$H/hwmon0/temp2_label"
mkfifo "$H/hwmon1/name"; echo 38000 >"$H/hwmon1/temp1_input"
echo nvme >"$H/hwmon2/name"; echo 36000 >"$H/hwmon2/temp1_input"
write_scenario "$WORK/scenario.json5" "[[0, 50], [1, 85], [2, 50]]"
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "100ms",
  sources: [
    { type: "thermal", root: "$T" },
    { type: "hwmon", root: "$H" },
    { type: "simulated", scenario: "scenario.json5", interval: "100ms" },
  ],
  rules: [
    { name: "cpu-hot", sensor: "sim:cpu", above: 80, severity: "critical" },
    { name: "hot", sensor: "*:*", above: 80, severity: "warning" },
    { name: "silent", sensor: "*:*", stale: "3s", severity: "warning" },
  ] }
J

# `sensors` first: it must not hang, and prints each hung sensor as a failed read.
t=$(now_ms)
timeout 15 "$BIN" sensors --config "$WORK/sensorwatch.json5" --json >"$WORK/sensors.json" \
    || fail "sensors exited $? on the tree with hung files"
note "sensors took $(( $(now_ms) - t )) ms"
got=$(jq -r '.[] | select(.id | startswith("sim:") | not) | "\(.id) \(.value) \(.error // "")"' "$WORK/sensors.json")
want="thermal:acpitz null read blocked for 1s
thermal:pch_cannonlake 50 
thermal:thermal_zone2 null type: read blocked for 1s
thermal:x86_pkg_temp 45 
hwmon:coretemp-virtual-0/temp1 45 
hwmon:coretemp-virtual-0/temp2 null temp2_label: read blocked for 1s
hwmon:nvme-virtual-0/temp1 36 "
[ "$got" = "$want" ] || fail "sensors printed
$got
expected
$want"

# `record` too: the healthy sensors are recorded at their interval, the hung ones as failed reads.
timeout 20 "$BIN" record --config "$WORK/sensorwatch.json5" --duration 6s --output "$WORK/rec.json" 2>"$WORK/record.err" \
    || fail "record exited $?: $(cat "$WORK/record.err")"
samples() { jq -r --arg id "$1" '.sensors[] | select(.id == $id) | .samples | map(.[1])' "$WORK/rec.json"; }
for id in thermal:x86_pkg_temp thermal:pch_cannonlake hwmon:coretemp-virtual-0/temp1 hwmon:nvme-virtual-0/temp1; do
    n=$(samples "$id" | jq 'map(select(. != null)) | length')
    note "record: $id $n readings in 6 s"
    [ "$n" -ge 25 ] || fail "record kept only $n readings of healthy $id"
done
for id in thermal:acpitz thermal:thermal_zone2 hwmon:coretemp-virtual-0/temp2; do
    [ "$(samples "$id" | jq 'map(select(. != null)) | length')" = 0 ] || fail "record has values of hung $id"
    [ "$(samples "$id" | jq 'length')" -ge 20 ] || fail "record has too few failed reads of hung $id"
done

start_journald
t0=$(now_ms)
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
expect_scenario_alerts_on_time "$t0"

# Each hung file is given up within 1.25 s of its read blocking, and its sensor is a fault
# with the reason. A source's hung files are found one after another (a read starts once
# the one before was given up), and the faults come with the first poll that gets through:
# here each source has two, so within 2 × 1.25 s, plus a tick and the daemon's start-up.
for want in "3500|thermal:thermal_zone2|sensor thermal:thermal_zone2 read failed: type: read blocked for 1s" \
            "3500|thermal:acpitz|sensor thermal:acpitz (acpitz) read failed: read blocked for 1s" \
            "3500|hwmon:coretemp-virtual-0/temp2|sensor hwmon:coretemp-virtual-0/temp2 read failed: temp2_label: read blocked for 1s"; do
    limit=${want%%|*}
    want=${want#*|}
    id=${want%%|*}
    wait_for "$id's fault" 100 journal_has SENSOR_ID="$id" SENSOR_STATE=failing
    msg=$(journal_json SENSOR_ID="$id" SENSOR_STATE=failing | jq -r .MESSAGE)
    [ "$msg" = "${want#*|}" ] || fail "fault entry: $msg"
    ms=$(latency "$t0" SENSOR_ID="$id" SENSOR_STATE=failing)
    note "$id a fault after $ms ms"
    [ "$ms" -le "$limit" ] || fail "$id became a fault only after $ms ms"
done

# The hung sensors go stale; the healthy ones never do (below).
for id in thermal:acpitz thermal:thermal_zone2 hwmon:coretemp-virtual-0/temp2; do
    wait_for "$id's stale alert" 50 journal_has ALERT_RULE=silent SENSOR_ID="$id"
done

# Healthy sensors of the same sources: their alerts come within two intervals of a change.
for f in "$T/thermal_zone3/temp|thermal:pch_cannonlake" "$H/hwmon0/temp1_input|hwmon:coretemp-virtual-0/temp1" \
         "$H/hwmon2/temp1_input|hwmon:nvme-virtual-0/temp1"; do
    t1=$(now_ms)
    put "${f%%|*}" 90000
    wait_for "${f#*|}'s alert" 50 journal_has ALERT_RULE=hot SENSOR_ID="${f#*|}"
    ms=$(latency "$t1" ALERT_RULE=hot SENSOR_ID="${f#*|}")
    note "${f#*|} alert $ms ms after its value changed (interval 100 ms)"
    [ "$ms" -le 500 ] || fail "${f#*|}'s alert took $ms ms"
done

# No thread piles up per tick while the files stay hung.
threads() { ls "/proc/$pid/task" | wc -l; }
before=$(threads)
# A fixed time: what is tested is that nothing happens over it, and nothing the daemon does
# marks a hung read given up again (it is a fault once, logged once).
sleep 3
after=$(threads)
note "threads: $before, 3 s (30 ticks) later $after"
[ "$after" -le "$before" ] || fail "threads grew from $before to $after while files stayed hung"
for id in thermal:x86_pkg_temp thermal:pch_cannonlake hwmon:coretemp-virtual-0/temp1 hwmon:nvme-virtual-0/temp1; do
    if journal_has ALERT_RULE=silent SENSOR_ID="$id"; then fail "healthy $id went stale"; fi
    if journal_has SENSOR_ID="$id" SENSOR_STATE=failing; then fail "healthy $id faulted"; fi
done
# The chip whose name hangs is left out (its sensors' ids are unknown), and one entry says so.
if journal_has SENSOR_ID=hwmon:hwmon1/temp1; then fail "the chip with the hung name got an id of its directory"; fi
has_note "^4 $H/hwmon1/name: read blocked for 1s; its sensors are left out until it answers\$" \
    || fail "no entry names the chip left out: $(journal_notes)"
[ "$(journal_notes | grep -c 'left out until')" = 1 ] || fail "the left-out chip was logged more than once"

# Recovery: the FIFOs replaced by regular files are read after the next discovery.
rm "$T/thermal_zone1/temp" "$T/thermal_zone2/type" "$H/hwmon0/temp2_label" "$H/hwmon1/name"
echo 46000 >"$T/thermal_zone1/temp"
echo acpitz >"$T/thermal_zone2/type"
echo "Core 0" >"$H/hwmon0/temp2_label"
echo drivetemp >"$H/hwmon1/name"
kill -HUP "$pid"
for id in thermal:acpitz hwmon:coretemp-virtual-0/temp2; do
    wait_for "$id's recovery" 50 journal_has SENSOR_ID="$id" SENSOR_STATE=reading
    wait_for "$id's resolved stale alert" 50 journal_has ALERT_RULE=silent SENSOR_ID="$id" ALERT_STATE=resolved
done
msg=$(journal_json SENSOR_ID=thermal:acpitz SENSOR_STATE=reading | jq -r .MESSAGE)
note "recovery entry: $msg"
# The zone whose type answered is now named by it (SPEC §4), the second acpitz by number.
put "$T/thermal_zone2/temp" 92000
wait_for "the named zone's alert" 50 journal_has ALERT_RULE=hot SENSOR_ID=thermal:acpitz.1
# The chip whose name answered now joins under its own name.
put "$H/hwmon1/temp1_input" 91000
wait_for "the rejoined chip's alert" 50 journal_has ALERT_RULE=hot SENSOR_ID=hwmon:drivetemp-virtual-0/temp1
stop_within_1s "$pid" TERM
pid=
note "hung files stalled only their own sensors"
