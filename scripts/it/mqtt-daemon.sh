#!/usr/bin/env bash
# `sensorwatch mqtt` end to end (SPEC §24 on §22): `sensorwatch run` on a written thermal tree
# at 1 s serves its live stream; the bridge publishes its values, an alert ON when a zone gets
# hot, a zone that appears (announced) and goes (configs removed); the daemon stopped makes the
# host offline, started again online, with the zone renumbered and the bridge restarted: the
# same unique_id and topics.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/mqtt.sh"
mqtt_setup
PORT=18840
on_fail() { echo "--- daemon"; tail -20 "$WORK/daemon.log"; echo "--- bridge"; cat "$WORK/bridge.log"; echo "--- subscriber"; tail -20 "$WORK/sub.log"; }
T=$WORK/thermal
zone "$T/thermal_zone0" x86_pkg_temp 50000
zone "$WORK/outside/thermal_zone1" iwlwifi_1 40000
# Both find the stream by SPEC §19's rule: $RUNTIME_DIRECTORY/live.sock.
export RUNTIME_DIRECTORY=$WORK/runtime STATE_DIRECTORY=$WORK/state
mkdir -p "$RUNTIME_DIRECTORY" "$STATE_DIRECTORY"
cat >"$WORK/sensorwatch.json5" <<JSON
{ interval: "1s",
  sources: [ { type: "thermal", root: "$T" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
  mqtt: { broker: "mqtt://127.0.0.1:$PORT", username: "$MQTT_USER", passwordFile: "$WORK/mqtt.pw", every: "0s" } }
JSON
start_broker $PORT
start_subscriber $PORT "$WORK/sub.log"
"$BIN" run --config "$WORK/sensorwatch.json5" 2>"$WORK/daemon.log" &
DAEMON_PID=$!
HELPER_PIDS+=($DAEMON_PID)
start_bridge "$WORK/bridge.log"
H=sensorwatch/$HOST_SAFE
D=homeassistant

wait_for "online" 100 has_line "$WORK/sub.log" "1 $H/status online"
wait_for "the zone's value" 100 has_line "$WORK/sub.log" "1 $H/sensor/thermal_x86_pkg_temp/state 50"
wait_for "its alert OFF" 100 has_line "$WORK/sub.log" "1 $H/alert/hot__thermal_x86_pkg_temp/state OFF"
grep -q "^1 $D/sensor/sensorwatch_$HOST_SAFE/thermal_x86_pkg_temp/config {.*\"expire_after\":30," "$WORK/sub.log" \
    || fail "no discovery config for the zone"

note "the zone gets hot: its value and the alert ON"
put "$T/thermal_zone0/temp" 85000
wait_for "85" 100 has_line "$WORK/sub.log" "1 $H/sensor/thermal_x86_pkg_temp/state 85"
wait_for "ON" 100 has_line "$WORK/sub.log" "1 $H/alert/hot__thermal_x86_pkg_temp/state ON"

note "the bridge stopped (SIGSTOP): the daemon goes on; continued, the bridge publishes the latest"
kill -STOP "$BRIDGE_PID"
status_value() { [ "$(jq -r '.sensors[] | select(.id == "thermal:x86_pkg_temp") | .value' "$RUNTIME_DIRECTORY/status.json" 2>/dev/null)" = "$1" ]; }
put "$T/thermal_zone0/temp" 60000
wait_for "the daemon's status at 60" 100 status_value 60
put "$T/thermal_zone0/temp" 95000
wait_for "the daemon's status at 95" 100 status_value 95
kill -CONT "$BRIDGE_PID"
wait_for "95 published" 100 has_line "$WORK/sub.log" "1 $H/sensor/thermal_x86_pkg_temp/state 95"

note "a zone appears, then goes"
mv "$WORK/outside/thermal_zone1" "$T/thermal_zone1"
wait_for "the new zone's config" 100 grep -q "^1 $D/sensor/sensorwatch_$HOST_SAFE/thermal_iwlwifi_1/config {" "$WORK/sub.log"
wait_for "the new zone's value" 100 has_line "$WORK/sub.log" "1 $H/sensor/thermal_iwlwifi_1/state 40"
mv "$T/thermal_zone1" "$WORK/outside/thermal_zone1"
wait_for "its config removed" 100 has_line "$WORK/sub.log" "1 $D/sensor/sensorwatch_$HOST_SAFE/thermal_iwlwifi_1/config "
wait_for "its alert's config removed" 100 has_line "$WORK/sub.log" "1 $D/binary_sensor/sensorwatch_$HOST_SAFE/hot__thermal_iwlwifi_1/config "

note "the daemon stops: offline; it starts again: online"
kill "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true
wait_for "offline" 100 has_line "$WORK/sub.log" "1 $H/status offline"
# Another boot numbers the zone differently; the bridge is restarted too.
mv "$T/thermal_zone0" "$T/thermal_zone7"
kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null || true
configs_before=$(grep -c "^1 $D/sensor/sensorwatch_$HOST_SAFE/thermal_x86_pkg_temp/config {" "$WORK/sub.log")
start_bridge "$WORK/bridge2.log"
"$BIN" run --config "$WORK/sensorwatch.json5" 2>>"$WORK/daemon.log" &
HELPER_PIDS+=($!)
online_again() { [ "$(grep -c "^1 $H/status online$" "$WORK/sub.log")" -ge 2 ]; }
wait_for "online again" 100 online_again
more_configs() { [ "$(grep -c "^1 $D/sensor/sensorwatch_$HOST_SAFE/thermal_x86_pkg_temp/config {" "$WORK/sub.log")" -gt "$configs_before" ]; }
wait_for "the renumbered zone's config under the same topic" 100 more_configs
[ "$(grep "^1 $D/sensor/sensorwatch_$HOST_SAFE/thermal_x86_pkg_temp/config {" "$WORK/sub.log" | tail -1 | cut -d' ' -f3- | jq -r .unique_id)" \
    = "sensorwatch_${HOST_SAFE}_thermal_x86_pkg_temp" ] || fail "the unique_id changed"
! grep -q "^1 $D/sensor/sensorwatch_$HOST_SAFE/thermal_x86_pkg_temp_2/" "$WORK/sub.log" || fail "a second object for the same zone"
kill -0 "$BRIDGE_PID" || fail "the bridge died with the daemon"
echo "ok"
