#!/usr/bin/env bash
# `sensorwatch mqtt` (SPEC §24) figures, each against a private mosquitto on 127.0.0.1 (ports
# 18850-18852), in a mount namespace (scripts/it/lib/mqtt.sh):
#  A. latency from a sysfs write to the MQTT message at a subscriber: `run` on a written
#     thermal zone at interval 1 s, the bridge at every: "0s"; p50, p95 (target p95 <= 1100 ms);
#  B. the bridge's CPU at 1000 sensors, 10 changing a second (the stand-in stream of the
#     tests): ms of CPU a second over RUN seconds (target <= 5);
#  C. the broker killed and restarted without persistence, 1000 sensors and an alert: time from
#     its return until every retained value, config and alert is right (target <= 5 s);
#  D. every discovery payload checked against Home Assistant's MQTT discovery: the keys the
#     sensor and binary_sensor platforms take, the device classes, and the units each class
#     accepts (home-assistant.io/integrations/sensor.mqtt, developers.home-assistant.io
#     /docs/core/entity/sensor "Available device classes").
# env: SENSORWATCH (binary), CHANGES (latency samples, 30), RUN (CPU seconds, 30).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
CHANGES=${CHANGES:-30}
RUN=${RUN:-30}
source "$here/../scripts/it/lib/common.sh"
source "$here/../scripts/it/lib/mqtt.sh"
# Skips are failures here: a figure needs every part.
skip() { echo "bench: $*" >&2; exit 1; }
mqtt_setup
H=sensorwatch/$HOST_SAFE
D=homeassistant
put() { printf '%s\n' "$2" | dd of="$1" conv=notrunc status=none; }

# --- A. sysfs -> subscriber ------------------------------------------------------------------
T=$WORK/thermal
mkdir -p "$T/thermal_zone0" "$WORK/runtime" "$WORK/state"
echo x86_pkg_temp >"$T/thermal_zone0/type"
put "$T/thermal_zone0/temp" 40000
cat >"$WORK/sensorwatch.json5" <<JSON
{ interval: "1s", sources: [ { type: "thermal", root: "$T" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
  mqtt: { broker: "mqtt://127.0.0.1:18850", username: "$MQTT_USER", passwordFile: "$WORK/mqtt.pw", every: "0s" } }
JSON
start_broker 18850
mosquitto_sub -h 127.0.0.1 -p 18850 -u "$HA_USER" -P "$HA_PASSWORD" -F '%U %p' -t "$H/sensor/thermal_x86_pkg_temp/state" \
    >"$WORK/latency.sub" &
HELPER_PIDS+=($!)
RUNTIME_DIRECTORY=$WORK/runtime STATE_DIRECTORY=$WORK/state "$BIN" run --config "$WORK/sensorwatch.json5" 2>"$WORK/daemon.log" &
HELPER_PIDS+=($!)
RUNTIME_DIRECTORY=$WORK/runtime "$BIN" mqtt --config "$WORK/sensorwatch.json5" >"$WORK/bridge.log" 2>&1 &
BRIDGE_PID=$!
wait_for "the first value" 100 grep -q ' 40$' "$WORK/latency.sub"
: >"$WORK/latency.txt"
for i in $(seq 1 "$CHANGES"); do
    value=$((41 + i))
    # A random phase against the 1 s poll.
    sleep "0.$(printf %03d $((RANDOM % 1000)))"
    t0=$(date +%s%N)
    put "$T/thermal_zone0/temp" "${value}000"
    got() { grep -q " $value\$" "$WORK/latency.sub"; }
    wait_for "value $value" 50 got
    t1=$(awk -v v="$value" '$2 == v { split($1, a, "."); printf "%s%s\n", a[1], substr(a[2] "000000000", 1, 9); exit }' "$WORK/latency.sub")
    echo $(( (t1 - t0) / 1000000 )) >>"$WORK/latency.txt"
done
read -r p50 p95 < <(sort -n "$WORK/latency.txt" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) * 0.5)], v[int(NR * 0.95 + 0.999)] }')
echo "A. sysfs write -> MQTT message, interval 1 s, every 0s, $CHANGES changes: p50 ${p50} ms, p95 ${p95} ms (target p95 <= 1100 ms)"
kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null || true; BRIDGE_PID=
stop_broker

# --- B. CPU at 1000 sensors, 10 changing a second ---------------------------------------------
start_broker 18851
start_fake_stream
stream "sensors 1000"
write_mqtt_config "broker: \"mqtt://127.0.0.1:18851\", username: \"$MQTT_USER\", passwordFile: \"$WORK/mqtt.pw\", every: \"0s\""
start_bridge "$WORK/bridge-b.log"
all_values() { [ "$(retained 18851 2001 | grep -c "^$H/sensor/sim_s[0-9]*/state ")" = 1000 ]; }
wait_for "1000 values" 100 all_values
stream "churn 10"
sleep 2
ticks() { awk '{ print $14 + $15 }' "/proc/$BRIDGE_PID/stat"; }
hz=$(getconf CLK_TCK)
c0=$(ticks); t0=$(date +%s%N)
sleep "$RUN"
c1=$(ticks); t1=$(date +%s%N)
cpu=$(awk -v c=$((c1 - c0)) -v hz="$hz" -v ns=$((t1 - t0)) 'BEGIN { printf "%.2f", c * 1000 / hz / (ns / 1e9) }')
rss=$(awk '/VmRSS/ { print $2 }' "/proc/$BRIDGE_PID/status")
echo "B. bridge CPU at 1000 sensors, 10 changing a second, over ${RUN} s: ${cpu} ms/s (target <= 5), RSS ${rss} KiB"

# --- C. broker restarted ------------------------------------------------------------------------
stream "{\"type\":\"change\",\"alerts\":[{\"rule\":\"cpu-hot\",\"sensor\":\"sim:s0000\",\"severity\":\"critical\",\"state\":\"firing\",\"since\":\"2026-12-07T09:00:00Z\",\"value\":91,\"threshold\":80,\"silenced\":null}]}"
kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null || true
# A rule on sim:s0000 so the alert has its binary sensor too.
sed -i 's|sensor: "sim:cpu"|sensor: "sim:s0000"|' "$WORK/sensorwatch.json5"
start_bridge "$WORK/bridge-c.log"
wait_for "the alert ON" 100 bash -c "mosquitto_sub -h 127.0.0.1 -p 18851 -u $HA_USER -P $HA_PASSWORD --retained-only -C 1 -W 1 -t '$H/alert/+/state' 2>/dev/null | grep -qx ON"
stop_broker KILL
start_broker 18851
back=$(date +%s%N)
# status, 1000 configs and values, the alert's config, state and attributes: 2004 retained.
right() {
    retained 18851 2004 >"$WORK/c.txt"
    [ "$(grep -c "^$H/sensor/sim_s[0-9]*/state " "$WORK/c.txt")" = 1000 ] \
        && [ "$(grep -c "^$D/sensor/sensorwatch_$HOST_SAFE/sim_s[0-9]*/config {" "$WORK/c.txt")" = 1000 ] \
        && grep -qx "$H/alert/cpu-hot__sim_s0000/state ON" "$WORK/c.txt" && grep -qx "$H/status online" "$WORK/c.txt"
}
wait_for "every retained value" 100 right
ms=$(( ($(date +%s%N) - back) / 1000000 ))
echo "C. broker killed and restarted (no persistence), 1000 sensors and an alert: all retained right ${ms} ms after its return (target <= 5000)"

# --- D. discovery payloads ----------------------------------------------------------------------
stream "{\"type\":\"change\",\"sensors\":[$(sensor_json sim:hum humidity %RH 40),$(sensor_json sim:press pressure hPa 1013),$(sensor_json sim:volt voltage V 12),$(sensor_json sim:curr current A 1),$(sensor_json sim:pow power W 60),$(sensor_json sim:fan fan rpm 900)]}"
wait_for "the six new configs" 100 bash -c "[ \$(mosquitto_sub -h 127.0.0.1 -p 18851 -u $HA_USER -P $HA_PASSWORD --retained-only -C 1007 -W 1 -t '$D/#' 2>/dev/null | wc -l) -ge 1007 ]"
mosquitto_sub -h 127.0.0.1 -p 18851 -u "$HA_USER" -P "$HA_PASSWORD" --retained-only -C 1007 -W 2 -F '%t %p' -t "$D/#" >"$WORK/configs.txt" 2>/dev/null || true
python3 - "$WORK/configs.txt" <<'PY'
import json, sys
# Home Assistant: the MQTT sensor and binary sensor platforms' keys used here, and the units
# the sensor entity accepts per device class (developers.home-assistant.io, "Available device
# classes"); a sensor without a device class takes any unit.
common = {"name", "unique_id", "state_topic", "availability_topic", "device", "json_attributes_topic"}
keys = {"sensor": common | {"device_class", "unit_of_measurement", "state_class", "expire_after"},
        "binary_sensor": common | {"device_class", "payload_on", "payload_off", "expire_after"}}
units = {"temperature": {"°C", "°F", "K"}, "humidity": {"%"},
         "pressure": {"cbar", "bar", "hPa", "mmHg", "inHg", "kPa", "mbar", "Pa", "psi"},
         "voltage": {"V", "mV", "µV", "kV", "MV"}, "current": {"A", "mA"}, "power": {"W", "kW", "mW", "MW", "GW", "TW"}}
binary_classes = {"problem"}
device_keys = {"identifiers", "name", "manufacturer", "model", "sw_version"}
seen, bad, classes, ids = 0, [], set(), set()
for line in open(sys.argv[1], encoding="utf-8"):
    topic, _, payload = line.rstrip("\n").partition(" ")
    parts = topic.split("/")
    if len(parts) != 5 or parts[4] != "config":
        continue
    platform, c = parts[1], json.loads(payload)
    seen += 1
    extra = set(c) - keys[platform]
    if extra: bad.append((topic, "keys " + ",".join(sorted(extra))))
    for k in ("name", "unique_id", "state_topic", "availability_topic", "device"):
        if k not in c: bad.append((topic, "no " + k))
    if c["unique_id"] in ids: bad.append((topic, "unique_id repeated"))
    ids.add(c["unique_id"])
    if set(c["device"]) - device_keys or not c["device"].get("identifiers"): bad.append((topic, "device"))
    dc = c.get("device_class")
    if platform == "sensor":
        if c.get("state_class") != "measurement": bad.append((topic, "state_class"))
        if not isinstance(c.get("expire_after"), int) or c["expire_after"] < 1: bad.append((topic, "expire_after"))
        if dc is not None and c.get("unit_of_measurement") not in units.get(dc, set()):
            bad.append((topic, "unit %s for %s" % (c.get("unit_of_measurement"), dc)))
        classes.add(dc or "none/" + c.get("unit_of_measurement", ""))
    else:
        if dc not in binary_classes: bad.append((topic, "binary device_class %s" % dc))
        classes.add("binary/" + dc)
print("D. discovery payloads: %d checked, %d problems; classes: %s" % (seen, len(bad), ", ".join(sorted(classes))))
for b in bad[:10]: print("   ", *b)
sys.exit(1 if bad or seen < 1007 else 0)
PY
