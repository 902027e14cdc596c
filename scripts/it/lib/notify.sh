# Helpers of the notify integration tests (sourced).

# One alert event as the daemon writes it (SPEC §7), sent with logger --journald.
alert_event() { # STATE RULE SEVERITY [SENSOR]
    local id
    case $1 in
        firing) id=f96e031d73b04032b5e2b8ab87332769 ;;
        resolved) id=e4eda26d66284e999fe0af5ec5782b44 ;;
        repeat) id=0787280739f14696816e8cf0a24bcd6c ;;
    esac
    logger --journald <<ENTRY
MESSAGE=$2 $1: ${4:-sim:cpu} (CPU package) 85 °C above 80 °C
PRIORITY=2
SYSLOG_IDENTIFIER=sensorwatch
MESSAGE_ID=$id
ALERT_RULE=$2
ALERT_STATE=$1
ALERT_SEVERITY=$3
ALERT_THRESHOLD=80
SENSOR_ID=${4:-sim:cpu}
SENSOR_LABEL=CPU package
SENSOR_QUANTITY=temperature
SENSOR_VALUE=85
SENSOR_UNIT=°C
ENTRY
}

# Stops the notifier started as $NOTIFY_PID, if any.
NOTIFY_PID=
stop_notify() {
    if [ -n "${NOTIFY_PID:-}" ]; then
        kill "$NOTIFY_PID" 2>/dev/null || true
        wait "$NOTIFY_PID" 2>/dev/null || true
        NOTIFY_PID=
    fi
}

# The servers and other processes a notify test started besides notify and journald.
HELPER_PIDS=()
# The EXIT trap of a notify test: notify, then the helpers, then journald.
notify_test_exit() {
    stop_notify
    for p in "${HELPER_PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    stop_journald
}

# notify.json (or $KEPT) as it is now, to see the next commit with kept_since: a delivery's
# cursor is written after its program ran, off the delivery's path (NotifyStateWriter).
keep_snapshot() { cp "${KEPT:-$WORK/state/notify.json}" "$WORK/kept.snapshot"; }
kept_since() { ! cmp -s "${KEPT:-$WORK/state/notify.json}" "$WORK/kept.snapshot"; }

# One empty datagram to notify's wake socket, as the daemon sends after an alert entry.
send_wake() {
    python3 -c 'import socket; socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"", "/run/sensorwatch-notify/wake")'
}

# A silence entry (SPEC §21) with every field, matching every rule until 2099, written by
# nobody: what another local user can forge. Trust (§17) must make it count for nothing.
forged_silence() { # ID
    setpriv --reuid=65534 --regid=65534 --clear-groups logger --journald <<ENTRY
MESSAGE=forged silence
SYSLOG_IDENTIFIER=sensorwatch
MESSAGE_ID=9b1e4c2a7d5f4e0b8a36c1f2e7d49a50
SILENCE_ID=$1
SILENCE_STATE=active
SILENCE_RULE=*
SILENCE_STARTS=2020-01-01T00:00:00Z
SILENCE_ENDS=2099-01-01T00:00:00Z
SILENCE_BY=root
ENTRY
}

# start_silent_alertmanager ADDR [ARG...]: a prometheus-alertmanager on ADDR whose one route
# sends nowhere (the tests read its API), storage in $WORK/am, log in $WORK/am.log, extra
# arguments passed on (--web.config.file=…); its PID in AM_PID. The caller waits for ready.
start_silent_alertmanager() {
    local addr=$1; shift
    mkdir -p "$WORK/am"
    cat >"$WORK/alertmanager.yml" <<'YML'
route:
  receiver: none
receivers:
  - name: none
YML
    prometheus-alertmanager --config.file="$WORK/alertmanager.yml" --storage.path="$WORK/am" \
        --web.listen-address="$addr" --cluster.listen-address= "$@" >>"$WORK/am.log" 2>&1 &
    AM_PID=$!
}
