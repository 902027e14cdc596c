#!/usr/bin/env bash
# Few threads to be had (issue 22: a failed thread start is an error its caller handles).
# `run` and `sensors` as user nobody under every RLIMIT_NPROC from 1 to 12 threads: each
# either exits with EX_OSERR (71) and `cannot start a thread for …: Resource temporarily
# unavailable` on stderr, or runs and says on stderr what it does without the thread it
# could not have (a source not polled, the state written on the rule loop), or reads the
# sensor — never a process that hangs without a word (the binary before this change hung
# silently at 1 to 3: its asynchronous main waited for a libdispatch worker, and the
# executor's thread that no one had started). Every one that runs stops at SIGTERM, exit 0.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
require_namespaces
require_binary
enter_namespace
need setpriv util-linux
need prlimit util-linux

T=$WORK/threads
mkdir -p "$T/state"
zone "$T/tree/thermal_zone0" x86_pkg_temp 45000
cat >"$T/c.json5" <<J
{ interval: "200ms", sources: [ { type: "thermal", root: "$T/tree" } ],
  statusFile: "$T/status.json",
  rules: [ { name: "hot", sensor: "thermal:*", above: 80 } ] }
J
chown -R 65534:65534 "$T"
chmod -R a+rX "$WORK"

# Threads the user has already (RLIMIT_NPROC counts all of them), so N is sensorwatch's own.
base=$(ps -L -u 65534 -o lwp= 2>/dev/null | grep -c . || true)
note "user nobody has $base threads before"
as_nobody() { # LIMIT COMMAND...
    local limit=$(($1 + base)); shift
    exec prlimit --nproc="$limit:$limit" -- setpriv --reuid=65534 --regid=65534 --clear-groups \
        env STATE_DIRECTORY="$T/state" "$@"
}
reading() { grep -q '"value":45' "$T/status.json" 2>/dev/null; }
# Whether the run at limit $n has settled: it exited, read the sensor, or said on stderr what
# it does without a thread it could not have ($outcome says which).
settled() {
    if ! kill -0 "$pid" 2>/dev/null; then outcome=exited
    elif reading; then outcome=reading
    elif grep -q 'cannot start a thread for .*: Resource temporarily unavailable; ' "$T/out.$n"; then outcome=said
    else return 1
    fi
}
refused=0 said=0 read=0
for n in $(seq 1 12); do
    rm -f "$T/status.json"
    as_nobody "$n" "$BIN" run --config "$T/c.json5" >"$T/out.$n" 2>&1 &
    pid=$!
    outcome=
    on_fail() { cat "$T/out.$n"; }
    wait_for "limit $n: an exit, a reading, or a word of what it lacks" 50 settled
    if [ "$outcome" = exited ]; then
        rc=0; wait "$pid" || rc=$?
        [ "$rc" = 71 ] || fail "limit $n: run exited $rc: $(cat "$T/out.$n")"
        grep -q '^sensorwatch: cannot start a thread for .*: Resource temporarily unavailable$' "$T/out.$n" \
            || fail "limit $n: exit 71 without the reason: $(cat "$T/out.$n")"
        refused=$((refused + 1))
        note "limit $n: $(grep 'cannot start' "$T/out.$n")"
        continue
    fi
    if [ "$outcome" = reading ]; then read=$((read + 1)); else said=$((said + 1)); fi
    note "limit $n: $outcome $(grep -o 'cannot start a thread for [^:]*' "$T/out.$n" | tr '\n' ' ')"
    kill -TERM "$pid"
    rc=0
    wait_for_exit "limit $n: run to stop on SIGTERM" "$pid" 50
    wait "$pid" || rc=$?
    [ "$rc" = 0 ] || fail "limit $n: run exited $rc after SIGTERM: $(cat "$T/out.$n")"
done
note "refused $refused, ran and said what it lacks $said, read the sensor $read"
[ "$refused" -ge 1 ] && [ "$said" -ge 1 ] && [ "$read" -ge 1 ] \
    || fail "expected each outcome at least once (refused $refused, said $said, read $read)"

# `sensors` reads on a poll thread with a stall watch: without them it says so, exit 71.
sensors_read=0
for n in $(seq 1 8); do
    rc=0
    timeout -s KILL 10 bash -c "$(declare -f as_nobody); base=$base T=$T; as_nobody $n '$BIN' sensors --config '$T/c.json5'" \
        >"$T/sensors.$n" 2>&1 || rc=$?
    case $rc in
    0) grep -q 'thermal:x86_pkg_temp.*45 °C' "$T/sensors.$n" || fail "sensors at $n: $(cat "$T/sensors.$n")"
       sensors_read=$((sensors_read + 1)) ;;
    71) grep -q '^sensorwatch: cannot start a thread for .*: Resource temporarily unavailable$' "$T/sensors.$n" \
        || fail "sensors at $n: exit 71 without the reason: $(cat "$T/sensors.$n")" ;;
    *) fail "sensors at limit $n exited $rc (137: hung): $(cat "$T/sensors.$n")" ;;
    esac
    note "sensors at $n: exit $rc"
done
[ "$sensors_read" -ge 1 ] || fail "sensors read nothing at any limit up to 8"
echo "ok: every thread limit gives a clear refusal, a word on what is missing, or readings"
