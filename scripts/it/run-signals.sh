#!/usr/bin/env bash
# `sensorwatch run` and signals: SIGTERM and SIGINT stop it cleanly within 1 s (exit 0),
# SIGHUP reloads (a bad config is logged at err and the running one kept), and signals at
# odd times (right after start, in a burst) are never fatal. No journald here: events go
# to stderr with <N> prefixes.
set -u
. "$(dirname "$0")/lib/common.sh"
require_binary
dir=$(mktemp -d /tmp/sw-it-signals.XXXXXX)
# The daemon keeps its state here, not in the host's /var/lib/sensorwatch (where a later run
# would find this run's alerts firing and log no firing).
export STATE_DIRECTORY="$dir/state"
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$dir"; }
trap cleanup EXIT
on_fail() { for f in "$dir"/err.*; do [ -s "$f" ] && { echo "--- ${f##*/} (last lines):"; tail -n 5 "$f"; }; done; }

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
    wait_for_line "$dir/err.$sig" "<4>cpu-hot firing: sim:cpu"
    stop_within_1s "$pid" "$sig"
done

# SIGHUP: invalid config is logged at err and the old one keeps running; a valid one reloads.
start hup
wait_for_line "$dir/err.hup" "<4>cpu-hot firing"
echo '{ rules: [ { name: "x", sensor: "*", above: 1, below: 2 } ], bogus: 1 }' >"$dir/config.json5"
kill -HUP "$pid"
wait_for_line "$dir/err.hup" "<3>reload failed"
before=$(grep -c "cpu-hot" "$dir/err.hup")
wait_for_line "$dir/err.hup" "<5>cpu-hot resolved"
echo "$good" | sed 's/cpu-hot/cpu-warm/' >"$dir/config.json5"
kill -HUP "$pid"
wait_for_line "$dir/err.hup" "<4>cpu-warm firing"
# A burst of SIGHUPs is coalesced, never fatal.
# The reload that follows the burst proves it was handled: a reverted config fires cpu-hot again.
echo "$good" >"$dir/config.json5"
fired=$(grep -c "<4>cpu-hot firing" "$dir/err.hup")
for _ in $(seq 20); do kill -HUP "$pid"; done
wait_for "cpu-hot firing again after the burst" 300 eval '[ "$(grep -c "<4>cpu-hot firing" "$dir/err.hup")" -gt "$fired" ]'
kill -0 "$pid" 2>/dev/null || fail "daemon died after a burst of SIGHUP"
stop_within_1s "$pid" TERM

# Signals right after start. `run` routes the signals it reads into a pipe as main's first
# step, so one sent from then on waits there until the daemon reads it: never ignored (the
# old SIG_IGN window lost a SIGTERM and the daemon ran on), never fatal.
sigmask() {  # sigmask PID FIELD: that mask of /proc/PID/status (hex), empty once it is gone
    # One read of the whole file (awk's buffer): the kernel writes it afresh for each read,
    # and bash's `read` reads it in pieces, so a field that changed length between two pieces
    # (VmRSS of a process starting up) shifted a line and SigCgt went unseen: run 26 of CI.
    awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null
}
binary=$(readlink -f "$SENSORWATCH")
runs_sensorwatch() { [ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$binary" ]; }
catches() { local m; m=$(sigmask "$1" SigCgt); [ -n "$m" ] && (( 0x$m & $2 )); }
# These two look without a pause between tries (WAIT_EVERY=0): the signal is to come the
# moment the process gets there.
wait_exec() {  # wait_exec PID: until PID runs sensorwatch itself (not the shell before it)
    WAIT_EVERY=0 wait_for "process $1 to exec sensorwatch" 5000 runs_sensorwatch "$1"
}
wait_caught() {  # wait_caught PID BIT: until main has a handler for that signal bit
    # sensorwatch's own handler: the shell forked before exec catches SIGTERM too (for this
    # script's EXIT trap), and a signal sent to it would run that trap.
    wait_exec "$1"
    WAIT_EVERY=0 wait_for "process $1 to catch signal bit $2" 5000 catches "$1" "$2"
}
term_bit=$(( 1 << (15 - 1) )) hup_bit=$(( 1 << (1 - 1) ))
echo "$good" >"$dir/config.json5"

# Never ignored, at any time: a running daemon has no signal of its own set to SIG_IGN.
start ign
wait_for_line "$dir/err.ign" "<4>cpu-hot firing"
m=$(sigmask "$pid" SigIgn)
(( 0x${m:-0} & (term_bit | hup_bit) )) && fail "SIGTERM or SIGHUP ignored (SigIgn $m)"
stop_within_1s "$pid" TERM

# SIGTERM the moment the handler is in place, before the config is read: exit 0 within 1 s.
runs=${EARLY_RUNS:-40} started=0
for i in $(seq "$runs"); do
    started=$i
    start "early$i"
    wait_caught "$pid" "$term_bit"
    stop_within_1s "$pid" TERM >/dev/null
done
echo "SIGTERM right after the handler: $started of $runs starts, each exit 0 within 1 s"

# SIGTERM at once after exec, with no wait for the handler: it lands before `main` (the
# default action ends the process: 143, which systemd counts as a clean stop too) or after
# (exit 0); never ignored, never a hang.
zero=0 killed=0
for i in $(seq "$runs"); do
    start "exec$i"
    wait_exec "$pid"
    kill -TERM "$pid"
    t0=$(date +%s%N)
    wait_for_exit "run $i to end on SIGTERM" "$pid" 20
    wait "$pid"; rc=$?
    case $rc in 0) zero=$((zero + 1)) ;; 143) killed=$((killed + 1)) ;; *) fail "run $i: exit $rc after an early SIGTERM" ;; esac
done
echo "SIGTERM at once after exec: $runs starts, $zero exit 0 (handled), $killed exit 143 (before main)"

# An early SIGHUP is kept and handled as a reload, not fatal.
start early
wait_caught "$pid" "$hup_bit"
kill -HUP "$pid" 2>/dev/null
wait_for_line "$dir/err.early" "configuration reloaded"
kill -0 "$pid" 2>/dev/null || fail "daemon died on an early SIGHUP"
stop_within_1s "$pid" TERM
echo "ok: SIGTERM/SIGINT stop run within 1 s, SIGHUP reloads, early and burst signals are never fatal"
