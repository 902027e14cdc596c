#!/usr/bin/env bash
# `sensorwatch watch` against `run` on a fake hwmon tree (SPEC §22): started before the
# daemon it says so once and waits; then one line per change (`HH:MM:SS id value unit`),
# NDJSON with --json (hello, then snapshot), only the matching sensors with --sensor; the
# daemon restarted, it says so and comes back; an alert's transition in red on a terminal
# (tmux); user nobody can run it; SIGINT (Ctrl-C) ends it with exit 0.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/tmux.sh"
setup_journal_test
need tmux tmux
need setpriv util-linux
start_journald
watchers=()
daemon=
cleanup() {
    stop_tmux
    for p in "${watchers[@]}"; do kill "$p" 2>/dev/null || true; done
    if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; fi
    stop_journald
}
trap cleanup EXIT

source "$(dirname "$0")/lib/live.sh"
# has FILE REGEX: a line of FILE matches the extended regular expression.
has() { grep -qE -- "$2" "$1"; }

note "started before the daemon, watch waits for it"
"$BIN" watch --config "$config" >"$WORK/watch.out" 2>"$WORK/watch.err" &
watch=$!
watchers+=("$watch")
wait_for "watch's waiting" 50 has "$WORK/watch.err" "waiting for it"
[ "$(grep -c . "$WORK/watch.err")" = 1 ] || fail "watch said more than once: $(cat "$WORK/watch.err")"
start_daemon
wait_for "the value line" 100 has "$WORK/watch.out" "^[0-9]{2}:[0-9]{2}:[0-9]{2} $cpu 50 °C$"

"$BIN" watch --config "$config" --json >"$WORK/json.out" 2>&1 &
watchers+=("$!")
"$BIN" watch --config "$config" --sensor 'hwmon:evil*' >"$WORK/glob.out" 2>&1 &
watchers+=("$!")
setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" watch --config "$config" >"$WORK/nobody.out" 2>&1 &
watchers+=("$!")
wait_for "--json's snapshot" 100 has "$WORK/json.out" '"type":"snapshot"'
wait_for "--sensor's line" 100 has "$WORK/glob.out" "hwmon:evil-virtual-0/temp1 30 °C"
wait_for "nobody's line" 100 has "$WORK/nobody.out" "$cpu 50 °C"

note "one line per change"
echo 61000 >"$h/hwmon0/temp1_input"
wait_for "the changed value" 100 has "$WORK/watch.out" "^[0-9:]{8} $cpu 61 °C$"
wait_for "the change as JSON" 100 has "$WORK/json.out" '"type":"change".*"value":61'
jq -e -s 'length >= 3 and .[0].type == "hello" and .[1].type == "snapshot"' "$WORK/json.out" >/dev/null \
    || fail "--json is not hello, snapshot, changes: $(head -c 600 "$WORK/json.out")"
if grep -q coretemp "$WORK/glob.out"; then fail "--sensor 'hwmon:evil*' printed coretemp: $(cat "$WORK/glob.out")"; fi

note "an alert's transition in red on a terminal"
new_pane 100 30 "$BIN watch --config $config; sleep 60"
wait_screen "$cpu 61 °C"
echo 91000 >"$h/hwmon0/temp1_input"
wait_screen "FIRING cpu-hot (critical)"
screen -e | grep -F "FIRING" | grep -qE $'\e\\[[0-9;]*31m' || fail "FIRING is not red: $(screen -e | grep -F FIRING | cat -v)"
has "$WORK/watch.out" "$cpu FIRING cpu-hot \(critical\) 91 °C$" || fail "the transition without colour off a terminal: $(tail -3 "$WORK/watch.out")"

note "the daemon restarted: watch says so and comes back"
stop_daemon
wait_for "watch's notice" 100 has "$WORK/watch.err" "went away"
echo 47000 >"$h/hwmon0/temp1_input"
start_daemon
wait_for "the value after the restart" 100 has "$WORK/watch.out" "$cpu 47 °C$"
wait_screen "$cpu 47 °C"

note "Ctrl-C ends it with exit 0"
kill -INT "$watch"
rc=0
wait "$watch" || rc=$?
[ "$rc" = 0 ] || fail "watch after SIGINT: exit $rc"
echo "ok"
