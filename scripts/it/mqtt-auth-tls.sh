#!/usr/bin/env bash
# `sensorwatch mqtt` (SPEC §24): TLS to mosquitto with a CA the test makes (certificates
# verified), a certificate from another CA refused, a wrong password refused — each one clear
# entry, retried, never a crash, the password never shown; libmosquitto missing: an error that
# names the package; `check` on the mqtt section; the binary does not link libmosquitto.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/mqtt.sh"
mqtt_setup
PORT=18820
TLS_PORT=18821
on_fail() { for f in "$WORK"/bridge*.log; do echo "--- $f"; cat "$f"; done; echo "--- broker"; tail -20 "$WORK/broker/log"; }

note "only mqtt loads libmosquitto: the binary does not link it"
! ldd "$BIN" | grep -q mosquitto || fail "the binary links libmosquitto: $(ldd "$BIN" | grep mosquitto)"

make_ca
start_broker $PORT $TLS_PORT
start_fake_stream
stream "{\"type\":\"change\",\"sensors\":[$(sensor_json sim:cpu temperature °C 42 CPU)]}"
H=sensorwatch/$HOST_SAFE

note "mqtts:// with the CA that signed the broker's certificate; the password a systemd credential"
start_subscriber $PORT "$WORK/sub.log"
write_mqtt_config "broker: \"mqtts://127.0.0.1:$TLS_PORT\", ca: \"$WORK/tls/ca.crt\", username: \"$MQTT_USER\", credential: \"mqtt-password\""
"$BIN" check --config "$WORK/sensorwatch.json5" | grep -qx OK || fail "check does not accept the TLS section"
mkdir -p "$WORK/credentials"
cp "$WORK/mqtt.pw" "$WORK/credentials/mqtt-password"
CREDENTIALS_DIRECTORY=$WORK/credentials start_bridge "$WORK/bridge-tls.log"
wait_for "online over TLS" 100 has_line "$WORK/sub.log" "1 $H/status online"
wait_for "a value over TLS" 100 has_line "$WORK/sub.log" "1 $H/sensor/sim_cpu/state 42"
kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null || true; BRIDGE_PID=
wait_for "offline at a clean stop" 100 has_line "$WORK/sub.log" "1 $H/status offline"

# Waits until the broker has seen $1 attempts whose log lines match $2 (retries happen).
attempts() { [ "$(grep -cE -- "$2" "$WORK/broker/log" || true)" -ge "$1" ]; }

note "a certificate from another CA: one entry, retried, still running"
write_mqtt_config "broker: \"mqtts://127.0.0.1:$TLS_PORT\", ca: \"$WORK/tls/other.crt\", username: \"$MQTT_USER\", passwordFile: \"$WORK/mqtt.pw\""
: >"$WORK/broker/log"
start_bridge "$WORK/bridge-ca.log"
wait_for "three TLS attempts (1 s, then 2 s apart)" 100 attempts 3 "New connection from 127.0.0.1:[0-9]* on port $TLS_PORT|Client connection from 127.0.0.1 failed"
kill -0 "$BRIDGE_PID" || fail "the bridge died on a refused certificate"
[ "$(grep -c 'TLS failed' "$WORK/bridge-ca.log")" = 1 ] || fail "not one entry for the refused certificate"
grep -q 'certificate verify failed' "$WORK/bridge-ca.log" || fail "the entry does not say why"
kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null || true; BRIDGE_PID=

note "a wrong password: one entry, retried, the password never shown"
printf 'wrong-%s\n' "$MQTT_PASSWORD" >"$WORK/mqtt.pw"
write_mqtt_config "broker: \"mqtt://127.0.0.1:$PORT\", username: \"$MQTT_USER\", passwordFile: \"$WORK/mqtt.pw\""
: >"$WORK/broker/log"
start_bridge "$WORK/bridge-pw.log"
wait_for "three refused logins" 100 attempts 3 "not authorised"
kill -0 "$BRIDGE_PID" || fail "the bridge died on a refused login"
[ "$(grep -c 'refused the login as "sensorwatch"' "$WORK/bridge-pw.log")" = 1 ] || fail "not one entry for the refused login"
! grep -qF "$MQTT_PASSWORD" "$WORK/bridge-pw.log" || fail "the password is shown"
! tr '\0' ' ' <"/proc/$BRIDGE_PID/cmdline" | grep -qF "$MQTT_PASSWORD" || fail "the password is in argv"
kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null || true; BRIDGE_PID=

note "check validates the mqtt section and never shows the password"
chmod 0644 "$WORK/mqtt.pw"
set +e
"$BIN" check --config "$WORK/sensorwatch.json5" >"$WORK/check.out" 2>&1
status=$?
set -e
[ "$status" = 78 ] || fail "check of a 0644 password file: exit $status"
grep -q 'mqtt.passwordFile: .*has mode 0644: a password file must have mode 0600 or 0400' "$WORK/check.out" || fail "check: $(cat "$WORK/check.out")"
cat >"$WORK/bad.json5" <<JSON
{ mqtt: { broker: "mqtt://u:$MQTT_PASSWORD@127.0.0.1", password: "$MQTT_PASSWORD", qos: 2 } }
JSON
set +e
"$BIN" check --config "$WORK/bad.json5" >"$WORK/check.out" 2>&1
status=$?
set -e
[ "$status" = 78 ] || fail "check of a bad mqtt section: exit $status"
[ "$(grep -c 'mqtt\.' "$WORK/check.out")" = 3 ] || fail "check: $(cat "$WORK/check.out")"
! grep -qF "$MQTT_PASSWORD" "$WORK/check.out" || fail "check shows the password"

note "libmosquitto missing: a clear error naming the package, exit 69"
chmod 0600 "$WORK/mqtt.pw"
lib=$(ldconfig -p | awk '/libmosquitto\.so\.1 / && !found { print $NF; found = 1 }')  # read to the end: an early exit is a SIGPIPE under pipefail
[ -n "$lib" ] || fail "no libmosquitto.so.1 in ldconfig's cache"
: >"$WORK/empty.so"
mount --bind "$WORK/empty.so" "$lib"
set +e
"$BIN" mqtt --config "$WORK/sensorwatch.json5" >"$WORK/missing.log" 2>&1
status=$?
set -e
umount "$lib"
[ "$status" = 69 ] || fail "without libmosquitto: exit $status ($(cat "$WORK/missing.log"))"
grep -q 'cannot load libmosquitto (install the package libmosquitto1)' "$WORK/missing.log" || fail "$(cat "$WORK/missing.log")"
echo "ok"
