#!/usr/bin/env bash
# Discovery that blocks (a FIFO, nobody writing, stands in for a wedged I2C/ACPI driver) as a
# thermal zone's `type`, an hwmon chip's `name`, an hwmon `tempN_label`, and a `temp` that
# blocks the first poll: each stalls only its own sensor (fault-hung-file.sh has them in one
# source beside healthy sensors). The healthy thermal and hwmon sources are read and alert
# on time, the scenario's alerts come on time, READY comes (with the sensors discovered so
# far), the sensors whose label or type blocks are faults, and SIGTERM stops the daemon
# within 1 s with exit 0.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

# thermal: a zone whose `type` blocks (its whole source waits in discovery)
zone "$WORK/type/thermal_zone0" fifo 50000
# thermal: a zone whose `temp` blocks (discovered, its first poll hangs)
zone "$WORK/temp/thermal_zone5" stuck fifo
# thermal: a healthy source
zone "$WORK/fast/thermal_zone9" fast 50000
# hwmon: a chip whose `name` blocks, one whose `temp1_label` blocks, and a healthy one
mkdir -p "$WORK/name/hwmon0" "$WORK/label/hwmon0" "$WORK/good/hwmon0"
mkfifo "$WORK/name/hwmon0/name"
echo 40000 >"$WORK/name/hwmon0/temp1_input"
echo chip >"$WORK/label/hwmon0/name"
mkfifo "$WORK/label/hwmon0/temp1_label"
echo 40000 >"$WORK/label/hwmon0/temp1_input"
echo good >"$WORK/good/hwmon0/name"
echo 40000 >"$WORK/good/hwmon0/temp1_input"
write_scenario "$WORK/scenario.json5" "[[0, 50], [1, 85], [2, 50]]"
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "100ms",
  sources: [
    { type: "thermal", root: "$WORK/type" },
    { type: "thermal", root: "$WORK/temp" },
    { type: "thermal", root: "$WORK/fast" },
    { type: "hwmon", root: "$WORK/name" },
    { type: "hwmon", root: "$WORK/label" },
    { type: "hwmon", root: "$WORK/good" },
    { type: "simulated", scenario: "scenario.json5", interval: "100ms" },
  ],
  rules: [
    { name: "cpu-hot", sensor: "sim:cpu", above: 80, severity: "critical" },
    { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" },
    { name: "chip-hot", sensor: "hwmon:*", above: 80, severity: "warning" },
  ] }
J
# The service manager's side of sd_notify: every datagram, one line each (newlines as |).
python3 - "$WORK/notify.sock" "$WORK/notify.log" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as log:
    while True:
        log.write(s.recv(4096).decode().replace("\n", "|") + "\n")
PY
helpers+=($!)
wait_for "the notify socket" 50 test -S "$WORK/notify.sock"

start_journald
t0=$(now_ms)
NOTIFY_SOCKET=$WORK/notify.sock start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
ready() { grep -q '^READY=1' "$WORK/notify.log" 2>/dev/null; }
wait_for "READY" 30 ready
ready_ms=$(( $(now_ms) - t0 ))
status=$(grep -m1 '^READY=1' "$WORK/notify.log")
note "READY after $ready_ms ms: $status"
[ "$ready_ms" -le 2500 ] || fail "READY took $ready_ms ms"
# Discovered by then: the stuck-temp zone, the fast zone, the good chip and sim:cpu (the
# type zone, the name chip and the label chip are still waiting in discovery). READY waits
# a second for them, so the scenario's alert due at 1 s may already fire. A blocked file is
# given up 1 to 1.25 s after it blocked: if that came first, the type zone and the label
# chip's sensor are in too, as faults.
[[ "$status" =~ STATUS=(4\ sensors,\ 0\ faulty|5\ sensors,\ [01]\ faulty|6\ sensors,\ [0-2]\ faulty),\ [01]\ firing ]] \
    || fail "READY status: $status"

expect_scenario_alerts_on_time "$t0"

# The healthy sources of both kinds are read every 100 ms.
t1=$(now_ms)
put "$WORK/fast/thermal_zone9/temp" 90000
put "$WORK/good/hwmon0/temp1_input" 91000
wait_for "the fast zone's alert" 100 journal_has ALERT_RULE=hot SENSOR_ID=thermal:fast
wait_for "the good chip's alert" 100 journal_has ALERT_RULE=chip-hot SENSOR_ID=hwmon:good-virtual-0/temp1
hot=$(latency "$t1" ALERT_RULE=hot SENSOR_ID=thermal:fast)
chip=$(latency "$t1" ALERT_RULE=chip-hot SENSOR_ID=hwmon:good-virtual-0/temp1)
note "healthy zone alert after $hot ms, healthy chip after $chip ms (interval 100 ms)"
[ "$hot" -le 1500 ] || fail "the fast zone's alert took $hot ms"
[ "$chip" -le 1500 ] || fail "the good chip's alert took $chip ms"
# The sensor whose label blocks and the zone whose type blocks are faults with the reason;
# neither alerts. The chip whose name blocks is left out, and one entry says so.
for want in "hwmon:chip-virtual-0/temp1|sensor hwmon:chip-virtual-0/temp1 read failed: temp1_label: read blocked for 1s" \
            "thermal:thermal_zone0|sensor thermal:thermal_zone0 read failed: type: read blocked for 1s"; do
    wait_for "${want%%|*}'s fault" 50 journal_has SENSOR_ID="${want%%|*}" SENSOR_STATE=failing
    msg=$(journal_json SENSOR_ID="${want%%|*}" SENSOR_STATE=failing | jq -r .MESSAGE)
    [ "$msg" = "${want#*|}" ] || fail "fault entry: $msg"
done
if journal_has ALERT_RULE=chip-hot SENSOR_ID=hwmon:chip-virtual-0/temp1; then fail "the chip whose label blocks alerted"; fi
wait_for "the left-out chip's entry" 50 has_note "^4 $WORK/name/hwmon0/name: read blocked for 1s; its sensors are left out until it answers\$"

stop_within_1s "$pid" TERM
pid=
grep -q '^STOPPING=1' "$WORK/notify.log" || fail "no STOPPING=1: $(cat "$WORK/notify.log")"
note "blocking discovery and polls stalled only their own sources"
