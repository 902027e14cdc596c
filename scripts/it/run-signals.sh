#!/usr/bin/env bash
# `sensorwatch run` and signals: SIGTERM and SIGINT stop it cleanly within 1 s (exit 0),
# SIGHUP reloads (a bad config is logged at err and the running one kept), and signals at
# odd times (right after start, in a burst) are never fatal. No journald here: events go
# to stderr with <N> prefixes.
set -u
. "$(dirname "$0")/../testlib.sh"
dir=$(mktemp -d /tmp/sw-it-signals.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$dir"; }
trap cleanup EXIT

cat >"$dir/scenario.json5" <<'J'
{ duration: "4s", step: "100ms", loop: true,
  sensors: [ { id: "cpu", quantity: "temperature", start: 70,
               segments: [ { ramp: 90, over: "1s" }, { hold: "1s" }, { ramp: 70, over: "1s" } ] } ] }
J
good='{ sources: [ { type: "simulated", scenario: "scenario.json5", interval: "100ms" } ],
  rules: [ { name: "cpu-hot", sensor: "sim:*", above: 80, hysteresis: 2 } ] }'
echo "$good" >"$dir/config.json5"

# Runs the daemon where no journald listens (private /run), stderr to a file.
start() {
    unshare -m --propagation private sh -c 'mount -t tmpfs none /run && exec "$0" run --config "$1"' \
        "$SENSORWATCH" "$dir/config.json5" 2>"$dir/err.$1" &
    pid=$!
    pids+=("$pid")
}
wait_for() {  # wait_for FILE TEXT: up to 15 s
    for _ in $(seq 150); do grep -qF -- "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
    fail "no '$2' in $1 after 15 s:"; cat "$1"; return 1
}
stop_within_1s() {  # stop_within_1s PID SIGNAL
    local t0 t1 rc
    t0=$(date +%s%N)
    kill -s "$2" "$1"
    wait "$1"; rc=$?
    t1=$(date +%s%N)
    local ms=$(( (t1 - t0) / 1000000 ))
    [ "$rc" -eq 0 ] || fail "exit status $rc after SIG$2, expected 0"
    [ "$ms" -le 1000 ] || fail "SIG$2 took $ms ms to stop (limit 1000)"
    echo "SIG$2: stopped in $ms ms, exit $rc"
}

for sig in TERM INT; do
    start "$sig"
    wait_for "$dir/err.$sig" "<4>cpu-hot firing: sim:cpu"
    stop_within_1s "$pid" "$sig"
done

# SIGHUP: invalid config is logged at err and the old one keeps running; a valid one reloads.
start hup
wait_for "$dir/err.hup" "<4>cpu-hot firing"
echo '{ rules: [ { name: "x", sensor: "*", above: 1, below: 2 } ], bogus: 1 }' >"$dir/config.json5"
kill -HUP "$pid"
wait_for "$dir/err.hup" "<3>reload failed"
before=$(grep -c "cpu-hot" "$dir/err.hup")
wait_for "$dir/err.hup" "<5>cpu-hot resolved"
echo "$good" | sed 's/cpu-hot/cpu-warm/' >"$dir/config.json5"
kill -HUP "$pid"
wait_for "$dir/err.hup" "<4>cpu-warm firing"
# A burst of SIGHUPs is coalesced, never fatal.
for _ in $(seq 20); do kill -HUP "$pid"; done
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "daemon died after a burst of SIGHUP"
stop_within_1s "$pid" TERM

# Signals right after start: as soon as the handlers are in place (SIGHUP ignored by the
# default disposition), before the config is read or any source discovered.
echo "$good" >"$dir/config.json5"
start early
for _ in $(seq 500); do
    ign=$(awk '/^SigIgn/ {print $2}' "/proc/$pid/status" 2>/dev/null)
    [ -n "$ign" ] && (( 0x$ign & 1 )) && break
    sleep 0.01
done
kill -HUP "$pid" 2>/dev/null
sleep 0.3
kill -0 "$pid" 2>/dev/null || fail "daemon died on an early SIGHUP"
stop_within_1s "$pid" TERM
finish
