#!/usr/bin/env bash
# Sleep (SPEC §20): a GPU-like chip whose device's parent (a PCI bridge) has
# power/runtime_status `suspended` is never opened or read. Its temp1_input is a FIFO, so an
# open would block: `run` (with a private journald, a status file and a metrics file) stays
# responsive — status.json is rewritten, SIGTERM stops it within 1 s —, `sensors` returns at
# once with `asleep`, status shows `asleep`, metrics `sensorwatch_sensor_asleep 1`, and the
# journal has no fault entry and no `stale` firing for it, while no process has the FIFO open
# for reading (a non-blocking open for writing says ENXIO). Its label (`temp1_label`) and
# limit (`temp1_crit`) are FIFOs too: discovery does not open them either, at the start, at a
# reload (SIGHUP) nor in `sensors`. Then the FIFOs are replaced by regular files and the bridge
# wakes (`active`): the next poll reads the value, and within 2 s status shows the label and
# the limit (a discovery at the waking, not at the minute's).
# The fake tree is bind-mounted over /sys/class/hwmon and /sys/devices in a private mount
# namespace, as in limits-lm-sensors.sh.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
need python3 python3
need promtool prometheus
setup_fault_test

T=$WORK/tree
bridge=pci0000:00/0000:00:01.0
gpu=$bridge/0000:01:00.0
mkdir -p "$T/class/hwmon" "$T/devices/$bridge/power" "$T/devices/$gpu/power" "$T/devices/$gpu/hwmon/hwmon1" \
    "$T/devices/platform/coretemp.0/hwmon/hwmon0"
echo suspended >"$T/devices/$bridge/power/runtime_status"
echo active >"$T/devices/$gpu/power/runtime_status"
echo amdgpu >"$T/devices/$gpu/hwmon/hwmon1/name"
mkfifo "$T/devices/$gpu/hwmon/hwmon1/temp1_input" "$T/devices/$gpu/hwmon/hwmon1/temp1_label" \
    "$T/devices/$gpu/hwmon/hwmon1/temp1_crit"
ln -s ../../../0000:01:00.0 "$T/devices/$gpu/hwmon/hwmon1/device"
echo coretemp >"$T/devices/platform/coretemp.0/hwmon/hwmon0/name"
echo 40000 >"$T/devices/platform/coretemp.0/hwmon/hwmon0/temp1_input"
ln -s ../../../coretemp.0 "$T/devices/platform/coretemp.0/hwmon/hwmon0/device"
ln -s ../../devices/platform/coretemp.0/hwmon/hwmon0 "$T/class/hwmon/hwmon0"
ln -s "../../devices/$gpu/hwmon/hwmon1" "$T/class/hwmon/hwmon1"
if [ ! -d /sys/class/hwmon ]; then mount -t tmpfs none /sys/class && mkdir /sys/class/hwmon; fi
mount --bind "$T/class/hwmon" /sys/class/hwmon
mounted+=(/sys/class/hwmon)
mount --bind "$T/devices" /sys/devices
mounted+=(/sys/devices)
CHIP=/sys/devices/$gpu/hwmon/hwmon1
FIFO=$CHIP/temp1_input
GPU=hwmon:amdgpu-pci-0100/temp1

# Whether some process has the FIFO open for reading (else a non-blocking open for writing
# fails with ENXIO).
fifo_has_reader() {
    python3 - "${1:-$FIFO}" <<'PY'
import errno, os, sys
try:
    os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK))
except OSError as e:
    sys.exit(1 if e.errno == errno.ENXIO else 2)
PY
}
no_fifo_open() {
    local f
    for f in temp1_input temp1_label temp1_crit; do
        if fifo_has_reader "$CHIP/$f"; then fail "$1: the sleeping GPU's $f (a FIFO) is open"; fi
    done
}

cat >"$WORK/sensorwatch.json5" <<J
{ interval: "200ms",
  sources: [ { type: "hwmon" } ],
  statusFile: "$WORK/status.json",
  metrics: { textfile: "$WORK/sensorwatch.prom", interval: "1s" },
  rules: [ { name: "silent", sensor: "*", stale: "1s", severity: "warning" },
           { name: "hot", sensor: "*", above: 90, severity: "warning" } ] }
J

# sensors: returns at once (it would block on the FIFO), with the GPU asleep.
timeout 5 "$BIN" sensors --json --config "$WORK/sensorwatch.json5" >"$WORK/sensors.json" \
    || fail "sensors did not return within 5 s (exit $?): it opened the FIFO"
jq -e --arg id "$GPU" 'any(.[]; .id == $id and .asleep == true and .value == null and (has("error") | not))' \
    "$WORK/sensors.json" >/dev/null || fail "sensors --json does not show $GPU asleep: $(cat "$WORK/sensors.json")"
jq -e 'any(.[]; .id == "hwmon:coretemp-isa-0000/temp1" and .value == 40)' "$WORK/sensors.json" >/dev/null \
    || fail "sensors --json lacks the awake chip's value: $(cat "$WORK/sensors.json")"
timeout 5 "$BIN" sensors --config "$WORK/sensorwatch.json5" | grep -qE "^$GPU +.* asleep$" \
    || fail "the sensors table does not show $GPU asleep"

start_journald
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
gpu_asleep() { [ -f "$WORK/status.json" ] && jq -e --arg id "$GPU" 'any(.sensors[]; .id == $id and .asleep == true and .ok)' "$WORK/status.json" >/dev/null 2>&1; }
wait_for "status.json with $GPU asleep" 100 gpu_asleep
metrics_asleep() { grep -qxF "sensorwatch_sensor_asleep{sensor=\"$GPU\"} 1" "$WORK/sensorwatch.prom" 2>/dev/null; }
wait_for "sensorwatch_sensor_asleep 1 in the metrics" 100 metrics_asleep
lint=$(promtool check metrics <"$WORK/sensorwatch.prom" 2>&1) || fail "promtool check metrics: $lint"
[ -z "$lint" ] || fail "promtool check metrics: $lint"
"$BIN" status --file "$WORK/status.json" | grep -qE "^ *$GPU .* asleep$" || fail "status does not show $GPU asleep:
$("$BIN" status --file "$WORK/status.json")"

# Responsive while the GPU sleeps for longer than the stale rule's 1 s: the status file is
# written again (updated moves), and nothing is said of the GPU in the journal.
updated=$(jq -r .updated "$WORK/status.json")
moved() { [ "$(jq -r .updated "$WORK/status.json" 2>/dev/null)" != "$updated" ]; }
wait_for "status.json rewritten" 150 moved
for _ in 1 2; do  # two more metrics writes, 1 s apart: well past the stale rule's second
    m=$(stat -c %Y.%N "$WORK/sensorwatch.prom" 2>/dev/null || echo 0)
    wait_for "the metrics file rewritten" 50 eval '[ "$(stat -c %Y.%N "$WORK/sensorwatch.prom")" != "$m" ]'
done
no_fifo_open "run"
# A reload discovers again: the sleeping chip's files stay unopened.
updated=$(jq -r .updated "$WORK/status.json")
kill -HUP "$pid"
wait_for "status.json rewritten after SIGHUP" 150 moved
wait_for "status.json with $GPU asleep after SIGHUP" 100 gpu_asleep
no_fifo_open "after a reload"
said=$(journal_json | jq -r --arg id "$GPU" 'select(.SENSOR_ID == $id) | .MESSAGE')
[ -z "$said" ] || fail "the journal speaks of the sleeping GPU: $said"
gpu_alerts=$(jq -r --arg id "$GPU" '[.alerts[] | select(.sensor == $id)] | length' "$WORK/status.json")
[ "$gpu_alerts" = 0 ] || fail "status.json has alerts of the sleeping GPU: $(cat "$WORK/status.json")"

# SIGTERM stops it within 1 s: no thread is stuck in the FIFO.
stop_within_a_second() {
    local t0
    t0=$(now_ms)
    kill -TERM "$pid"
    WAIT_EVERY=0.05 wait_for_exit "the daemon to stop within 1 s of SIGTERM" "$pid" 20
    wait "$pid" || true
    pid=
    note "stopped $(( $(now_ms) - t0 )) ms after SIGTERM"
}
stop_within_a_second
rm -f "$WORK/status.json"
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
wait_for "status.json with $GPU asleep after a restart" 100 gpu_asleep

# Awake: regular files replace the FIFOs and the bridge says active; the next poll reads the
# value, and the discovery the waking asks for reads the label and the limit within 2 s.
rm "$FIFO" "$CHIP/temp1_label" "$CHIP/temp1_crit"
echo 55000 >"$FIFO"
echo edge >"$CHIP/temp1_label"
echo 100000 >"$CHIP/temp1_crit"
echo active >"/sys/devices/$bridge/power/runtime_status"
woke=$(now_ms)
gpu_read() { jq -e --arg id "$GPU" 'any(.sensors[]; .id == $id and .value == 55 and .ok and (.asleep | not))' "$WORK/status.json" >/dev/null 2>&1; }
wait_for "status.json with $GPU at 55 °C" 100 gpu_read
gpu_named() { jq -e --arg id "$GPU" 'any(.sensors[]; .id == $id and .label == "edge" and .limits.crit == 100)' "$WORK/status.json" >/dev/null 2>&1; }
wait_for "status.json with $GPU's label and crit limit" 100 gpu_named
took=$(( $(now_ms) - woke ))
[ "$took" -le 2000 ] || fail "the woken GPU's label and limit took $took ms to show (more than 2 s)"
note "label and limit read $took ms after the waking"
wait_for "the asleep line gone from the metrics" 100 eval '! grep -q "^sensorwatch_sensor_asleep" "$WORK/sensorwatch.prom"'
wait_for "the woken GPU's label in the metrics" 100 eval 'grep -qxF "sensorwatch_temperature_celsius{sensor=\"$GPU\",label=\"edge\"} 55" "$WORK/sensorwatch.prom"'
grep -qxF "sensorwatch_temperature_celsius{sensor=\"$GPU\",label=\"edge\"} 55" "$WORK/sensorwatch.prom" \
    || fail "the metrics lack the woken GPU's value: $(grep amdgpu "$WORK/sensorwatch.prom")"
said=$(journal_json | jq -r --arg id "$GPU" 'select(.SENSOR_ID == $id) | .MESSAGE')
[ -z "$said" ] || fail "the journal speaks of the GPU: $said"

stop_within_a_second
echo "ok: a suspended GPU is never opened, nor its label and limit (sensors, run, a reload; status, metrics say asleep), and read once active, its label and limit within 2 s"
