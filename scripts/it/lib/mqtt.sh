# Helpers of the mqtt-*.sh tests (sourced after common.sh): a private mosquitto with a
# password file, an ACL and a TLS listener whose CA the test makes, the stand-in for the
# daemon's live stream, subscribers. Every process is started here and killed by its PID.

MQTT_USER=sensorwatch
# Characters a shell or a URL would trip on: the password must still work and never show.
MQTT_PASSWORD='s3cr:et/pa$$w0rd!'
HA_USER=ha
HA_PASSWORD=ha-pass
HELPER_PIDS=()

mqtt_setup() {
    [ "$(id -u)" = 0 ] || skip "needs root for mount namespaces"
    need unshare util-linux
    need jq jq
    need mosquitto mosquitto
    need mosquitto_sub mosquitto-clients
    need openssl openssl
    need python3 python3
    require_binary
    enter_namespace
    trap mqtt_cleanup EXIT
    HOST_SAFE=$(hostname | tr -c 'A-Za-z0-9_\n-' '_')
    mkdir -p "$WORK/broker" "$WORK/tls"
    mosquitto_passwd -b -c "$WORK/broker/passwords" "$MQTT_USER" "$MQTT_PASSWORD" 2>/dev/null
    mosquitto_passwd -b "$WORK/broker/passwords" "$HA_USER" "$HA_PASSWORD" 2>/dev/null
    chmod 0600 "$WORK/broker/passwords"
    cat >"$WORK/broker/acl" <<ACL
user $MQTT_USER
topic readwrite sensorwatch/#
topic readwrite homeassistant/#
user $HA_USER
topic read #
topic write homeassistant/status
ACL
    printf '%s\n' "$MQTT_PASSWORD" >"$WORK/mqtt.pw"
    chmod 0600 "$WORK/mqtt.pw"
}

mqtt_cleanup() {
    local pid
    for pid in "${BRIDGE_PID:-}" "${HELPER_PIDS[@]}" "${BROKER_PID:-}"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    for pid in "${BRIDGE_PID:-}" "${HELPER_PIDS[@]}" "${BROKER_PID:-}"; do
        [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
    done
}

# A CA, a certificate for 127.0.0.1 it signed, and a second CA that vouches for nothing here.
make_ca() {
    local t=$WORK/tls
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=sensorwatch test CA" \
        -keyout "$t/ca.key" -out "$t/ca.crt" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$t/server.key" -out "$t/server.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\n' >"$t/san.ext"
    openssl x509 -req -in "$t/server.csr" -CA "$t/ca.crt" -CAkey "$t/ca.key" -CAcreateserial -days 2 \
        -extfile "$t/san.ext" -out "$t/server.crt" 2>/dev/null
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=another CA" \
        -keyout "$t/other.key" -out "$t/other.crt" 2>/dev/null
    chmod 0644 "$t"/*
}


# Starts mosquitto: PORT plain, and TLS on TLS_PORT when given (make_ca first). Logs to
# $WORK/broker/log (appended, so a restart keeps the earlier lines).
start_broker() { # PORT [TLS_PORT]
    {
        # Started as root, mosquitto would become user mosquitto, who cannot read the test's files.
        echo "user root"
        echo "allow_anonymous false"
        echo "password_file $WORK/broker/passwords"
        echo "acl_file $WORK/broker/acl"
        echo "log_dest file $WORK/broker/log"
        echo "log_type all"
        echo "listener $1 127.0.0.1"
        if [ -n "${2:-}" ]; then
            echo "listener $2 127.0.0.1"
            echo "cafile $WORK/tls/ca.crt"
            echo "certfile $WORK/tls/server.crt"
            echo "keyfile $WORK/tls/server.key"
        fi
    } >"$WORK/broker/mosquitto.conf"
    mosquitto -c "$WORK/broker/mosquitto.conf" >>"$WORK/broker/stdout" 2>&1 &
    BROKER_PID=$!
    wait_for "mosquitto on $1" 100 listening "$1"
}

stop_broker() { # [SIGNAL]
    kill "-${1:-TERM}" "$BROKER_PID" 2>/dev/null || true
    wait "$BROKER_PID" 2>/dev/null || true
    BROKER_PID=
}

# The stand-in for the daemon's stream at $WORK/live.sock, driven through $WORK/live.ctl.
start_fake_stream() {
    mkfifo "$WORK/live.ctl"
    python3 "$ROOT/scripts/it/lib/fake_live_stream.py" "$WORK/live.sock" "$WORK/live.ctl" &
    HELPER_PIDS+=($!)
    wait_for "the fake stream's socket" 100 test -S "$WORK/live.sock"
}

stream() { printf '%s\n' "$*" >"$WORK/live.ctl"; }

# A §22 sensor object: ID QUANTITY UNIT VALUE [LABEL].
sensor_json() {
    jq -cn --arg id "$1" --arg q "$2" --arg u "$3" --argjson v "$4" --arg l "${5:-}" \
        '{id: $id, label: $l, quantity: $q, unit: $u, value: $v, time: "2026-12-07T09:00:00Z", ok: true,
          error: null, limits: null, alarms: [], asleep: false}'
}

# Subscribes as Home Assistant would (ACL user ha) to everything, keeping each message as
# `RETAIN TOPIC PAYLOAD`, the retain flag as published (MQTT 5).
start_subscriber() { # PORT FILE
    : >"$2"
    mosquitto_sub -h 127.0.0.1 -p "$1" -u "$HA_USER" -P "$HA_PASSWORD" -V mqttv5 --retain-as-published \
        -F '%r %t %p' -t 'sensorwatch/#' -t 'homeassistant/#' >"$2" 2>&1 &
    HELPER_PIDS+=($!)
    SUB_PID=$!
}

# The retained messages under sensorwatch/# and homeassistant/# now: `TOPIC PAYLOAD` lines;
# it returns once COUNT came, or after a second (callers that wait try again).
retained() { # PORT COUNT
    mosquitto_sub -h 127.0.0.1 -p "$1" -u "$HA_USER" -P "$HA_PASSWORD" --retained-only -C "$2" -W 1 \
        -F '%t %p' -t 'sensorwatch/#' -t 'homeassistant/#' 2>/dev/null || true
}

has_line() { grep -qxF -- "$2" "$1"; }
count_lines() { grep -cxF -- "$2" "$1" || true; }

# Writes $WORK/sensorwatch.json5 with the mqtt section $1 (JSON5 members) and rule cpu-hot.
write_mqtt_config() {
    cat >"$WORK/sensorwatch.json5" <<JSON
{
  liveSocket: "$WORK/live.sock",
  sources: [ { type: "hwmon", root: "$WORK/nohwmon", interval: "1s" } ],
  rules: [ { name: "cpu-hot", sensor: "sim:cpu", above: 80, severity: "critical", runbook: "https://wiki.example/cpu" } ],
  mqtt: { $1 },
}
JSON
}

start_bridge() { # LOG
    "$BIN" mqtt --config "$WORK/sensorwatch.json5" >"$1" 2>&1 &
    BRIDGE_PID=$!
}
