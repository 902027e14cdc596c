#!/usr/bin/env bash
# `sensorwatch mqtt` (SPEC §24) against mosquitto 2.0 on 127.0.0.1 with a password file and an
# ACL, fed by a stand-in for the daemon's live stream (§22): status online and the last will,
# every topic retained, discovery for each quantity, an alert ON with its attributes and OFF,
# a gone sensor's configs removed, an appeared one announced, Home Assistant's birth message,
# the broker killed and restarted (every retained value and alert right again within 5 s),
# the bridge killed (offline), and the password nowhere.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/mqtt.sh"
mqtt_setup
PORT=18810
on_fail() { echo "--- broker"; cat "$WORK/broker/stdout" 2>/dev/null; tail -5 "$WORK/broker/log" 2>/dev/null; echo "--- bridge"; cat "$WORK/bridge.log"; echo "--- subscriber"; tail -30 "$WORK/sub.log"; }

start_broker $PORT
start_fake_stream
H=sensorwatch/$HOST_SAFE
D=homeassistant
for s in "sim:cpu temperature °C 45.5 CPU" "sim:hum humidity %RH 40" "sim:press pressure hPa 1013.2" \
    "sim:volt voltage V 12.1" "sim:curr current A 1.5" "sim:pow power W 65" "sim:fan fan rpm 1200"; do
    set -- $s
    stream "{\"type\":\"change\",\"sensors\":[$(sensor_json "$1" "$2" "$3" "$4" "${5:-}")]}"
done
start_subscriber $PORT "$WORK/sub.log"
write_mqtt_config "broker: \"mqtt://127.0.0.1:$PORT\", username: \"$MQTT_USER\", passwordFile: \"$WORK/mqtt.pw\", every: \"0s\""
start_bridge "$WORK/bridge.log"

note "online, every sensor's value and every alert's state, retained"
wait_for "online" 100 has_line "$WORK/sub.log" "1 $H/status online"
wait_for "the fan's value" 100 has_line "$WORK/sub.log" "1 $H/sensor/sim_fan/state 1200"
wait_for "cpu-hot's OFF" 100 has_line "$WORK/sub.log" "1 $H/alert/cpu-hot__sim_cpu/state OFF"
has_line "$WORK/sub.log" "1 $H/sensor/sim_cpu/state 45.5" || fail "no retained value of sim:cpu"
has_line "$WORK/sub.log" "1 $H/sensor/sim_press/state 1013.2" || fail "no retained value of sim:press"

grep -q "New client connected from 127.0.0.1:[0-9]* as sensorwatch-$HOST_SAFE .*u'$MQTT_USER'" "$WORK/broker/log" \
    || fail "the default client id is not sensorwatch-$HOST_SAFE, or the login not $MQTT_USER"

note "discovery for each quantity"
config() { grep "^1 $D/$1/sensorwatch_$HOST_SAFE/$2/config " "$WORK/sub.log" | tail -1 | cut -d' ' -f3-; }
for q in "sim_cpu temperature °C" "sim_hum humidity %" "sim_press pressure hPa" "sim_volt voltage V" \
    "sim_curr current A" "sim_pow power W" "sim_fan null RPM"; do
    set -- $q
    json=$(config sensor "$1")
    [ -n "$json" ] || fail "no discovery config for $1"
    [ "$(jq -r '.device_class' <<<"$json")" = "$2" ] || fail "$1: device_class $(jq -r .device_class <<<"$json"), expected $2"
    [ "$(jq -r '.unit_of_measurement' <<<"$json")" = "$3" ] || fail "$1: unit $(jq -r .unit_of_measurement <<<"$json")"
    [ "$(jq -r '.state_class' <<<"$json")" = measurement ] || fail "$1: state_class"
    [ "$(jq -r '.unique_id' <<<"$json")" = "sensorwatch_${HOST_SAFE}_$1" ] || fail "$1: unique_id"
    [ "$(jq -r '.state_topic' <<<"$json")" = "$H/sensor/$1/state" ] || fail "$1: state_topic"
    [ "$(jq -r '.availability_topic' <<<"$json")" = "$H/status" ] || fail "$1: availability_topic"
    [ "$(jq -r '.expire_after' <<<"$json")" -ge 30 ] || fail "$1: expire_after"
    [ "$(jq -r '.device.identifiers[0] + " " + .device.model' <<<"$json")" = "sensorwatch_$HOST_SAFE sensorwatch" ] \
        || fail "$1: device"
done
[ "$(config sensor sim_cpu | jq -r .name)" = CPU ] || fail "the name is not the label"
[ "$(config sensor sim_hum | jq -r .name)" = sim:hum ] || fail "without a label, the name is not the id"
alert=$(config binary_sensor cpu-hot__sim_cpu)
[ "$(jq -r '.device_class + " " + .json_attributes_topic' <<<"$alert")" = "problem $H/alert/cpu-hot__sim_cpu/attributes" ] \
    || fail "the alert's binary sensor: $alert"

note "an alert fires: ON with its attributes; it resolves: OFF"
stream "{\"type\":\"change\",\"sensors\":[$(sensor_json sim:cpu temperature °C 91 CPU)],\"alerts\":[{\"rule\":\"cpu-hot\",\"sensor\":\"sim:cpu\",\"severity\":\"critical\",\"state\":\"firing\",\"since\":\"2026-12-07T09:00:01Z\",\"value\":91,\"threshold\":80,\"silenced\":null}]}"
wait_for "ON" 100 has_line "$WORK/sub.log" "1 $H/alert/cpu-hot__sim_cpu/state ON"
attributes=$(grep "^1 $H/alert/cpu-hot__sim_cpu/attributes " "$WORK/sub.log" | tail -1 | cut -d' ' -f3-)
[ "$(jq -r '[.rule, .sensor, .severity, .threshold, .value, .since, .runbook] | join(" ")' <<<"$attributes")" \
    = "cpu-hot sim:cpu critical 80 91 2026-12-07T09:00:01.000Z https://wiki.example/cpu" ] || fail "attributes: $attributes"
jq -e '.message | test("cpu-hot fires for CPU")' <<<"$attributes" >/dev/null || fail "no message: $attributes"
stream "{\"type\":\"change\",\"alerts\":[{\"rule\":\"cpu-hot\",\"sensor\":\"sim:cpu\",\"severity\":\"critical\",\"state\":\"ok\",\"since\":\"2026-12-07T09:00:09Z\",\"value\":70,\"threshold\":80,\"silenced\":null}]}"
# At least N lines of the subscriber's log match the pattern (looked at anew at each try).
at_least() { [ "$(grep -c -- "$2" "$WORK/sub.log" || true)" -ge "$1" ]; }
wait_for "OFF again" 100 at_least 2 "^1 $H/alert/cpu-hot__sim_cpu/state OFF$"

note "a sensor goes: its config and state removed; one appears: announced"
stream '{"type":"change","gone":["sim:fan"]}'
wait_for "the fan's config removed" 100 has_line "$WORK/sub.log" "1 $D/sensor/sensorwatch_$HOST_SAFE/sim_fan/config "
wait_for "the fan's state removed" 100 has_line "$WORK/sub.log" "1 $H/sensor/sim_fan/state "
stream "{\"type\":\"change\",\"sensors\":[$(sensor_json sim:new.one temperature °C 30 New)],\"appeared\":[\"sim:new.one\"]}"
wait_for "the new sensor's config" 100 at_least 1 "^1 $D/sensor/sensorwatch_$HOST_SAFE/sim_new_one/config {"
wait_for "the new sensor's value" 100 has_line "$WORK/sub.log" "1 $H/sensor/sim_new_one/state 30"

note "Home Assistant's birth message: every config again"
before=$(grep -c "^1 $D/sensor/sensorwatch_$HOST_SAFE/sim_cpu/config {" "$WORK/sub.log")
mosquitto_pub -h 127.0.0.1 -p $PORT -u "$HA_USER" -P "$HA_PASSWORD" -t "$D/status" -m online
wait_for "configs again" 100 at_least $((before + 1)) "^1 $D/sensor/sensorwatch_$HOST_SAFE/sim_cpu/config {"
wait_for "the new sensor's config again" 100 at_least 2 "^1 $D/sensor/sensorwatch_$HOST_SAFE/sim_new_one/config {"

note "the broker killed and restarted (nothing kept on disk): everything retained again within 5 s"
stop_broker KILL
# Changed while the broker is away: the latest value and the alert's transitions come back.
stream "{\"type\":\"change\",\"sensors\":[$(sensor_json sim:cpu temperature °C 95 CPU)],\"alerts\":[{\"rule\":\"cpu-hot\",\"sensor\":\"sim:cpu\",\"severity\":\"critical\",\"state\":\"firing\",\"since\":\"2026-12-07T09:01:00Z\",\"value\":95,\"threshold\":80,\"silenced\":null}]}"
stream "{\"type\":\"change\",\"sensors\":[$(sensor_json sim:hum humidity %RH 55)]}"
start_broker $PORT
back=$(date +%s%N)
expect_retained() {
    local got
    # status, 7 sensors' configs and values, the alert's config, state and attributes.
    got=$(retained $PORT 18)
    grep -qxF "$H/status online" <<<"$got" && grep -qxF "$H/sensor/sim_cpu/state 95" <<<"$got" \
        && grep -qxF "$H/sensor/sim_hum/state 55" <<<"$got" && grep -qxF "$H/alert/cpu-hot__sim_cpu/state ON" <<<"$got" \
        && grep -q "^$D/sensor/sensorwatch_$HOST_SAFE/sim_new_one/config {" <<<"$got" \
        && ! grep -q "^$D/sensor/sensorwatch_$HOST_SAFE/sim_fan/config" <<<"$got"
}
wait_for "every retained value and alert after the restart" 50 expect_retained
elapsed=$(( ($(date +%s%N) - back) / 1000000 ))
note "retained state right ${elapsed} ms after the broker's return"
[ "$elapsed" -le 5000 ] || fail "took ${elapsed} ms (more than 5 s)"
[ "$(grep -c 'connected to mqtt://127.0.0.1:18810 again' "$WORK/bridge.log")" = 1 ] || fail "the reconnection is not said once"

note "the bridge killed: the broker's last will says offline"
start_subscriber $PORT "$WORK/sub2.log"
wait_for "the second subscriber" 100 has_line "$WORK/sub2.log" "1 $H/status online"
kill -KILL "$BRIDGE_PID"
wait "$BRIDGE_PID" 2>/dev/null || true
BRIDGE_PID=
wait_for "the last will" 100 has_line "$WORK/sub2.log" "1 $H/status offline"
[ "$(retained $PORT 1 | grep "^$H/status ")" = "$H/status offline" ] || fail "offline is not retained"

note "the password appears nowhere"
! grep -qF "$MQTT_PASSWORD" "$WORK/bridge.log" || fail "the password is in the bridge's output"
"$BIN" check --config "$WORK/sensorwatch.json5" >"$WORK/check.out" 2>&1 || fail "check: $(cat "$WORK/check.out")"
! grep -qF "$MQTT_PASSWORD" "$WORK/check.out" || fail "the password is in check's output"
echo "ok"
