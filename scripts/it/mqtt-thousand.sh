#!/usr/bin/env bash
# `sensorwatch mqtt` (SPEC §24) with 1000 sensors: every one announced and its value retained,
# and changes of 10 sensors a second published (every: "0s") while the rest stay as they are.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/mqtt.sh"
mqtt_setup
PORT=18830
on_fail() { echo "--- bridge"; cat "$WORK/bridge.log"; }

start_broker $PORT
start_fake_stream
stream "sensors 1000"
write_mqtt_config "broker: \"mqtt://127.0.0.1:$PORT\", username: \"$MQTT_USER\", passwordFile: \"$WORK/mqtt.pw\", every: \"0s\""
start_bridge "$WORK/bridge.log"
H=sensorwatch/$HOST_SAFE
D=homeassistant/sensor/sensorwatch_$HOST_SAFE

# 1000 configs + 1000 values + the status, all retained.
all_retained() {
    retained $PORT 2001 >"$WORK/retained"
    [ "$(grep -c "^$D/sim_s[0-9]*/config {" "$WORK/retained")" = 1000 ] \
        && [ "$(grep -c "^$H/sensor/sim_s[0-9]*/state 20$" "$WORK/retained")" = 1000 ]
}
wait_for "1000 configs and values retained" 100 all_retained
grep -qxF "$H/status online" "$WORK/retained" || fail "no online status"

note "10 sensors change: each one's new value arrives"
start_subscriber $PORT "$WORK/sub.log"
wait_for "the subscriber" 100 has_line "$WORK/sub.log" "1 $H/status online"
changed=""
for n in 0 111 222 333 444 555 666 777 888 999; do
    changed+="$(sensor_json "sim:s$(printf %04d $n)" temperature °C 21.5),"
done
stream "{\"type\":\"change\",\"sensors\":[${changed%,}]}"
for n in 0 111 222 333 444 555 666 777 888 999; do
    wait_for "sim:s$n's new value" 100 has_line "$WORK/sub.log" "1 $H/sensor/sim_s$(printf %04d $n)/state 21.5"
done
[ "$(grep -c "/state 21.5$" "$WORK/sub.log")" = 10 ] || fail "not exactly the 10 changed values were published"
echo "ok"
