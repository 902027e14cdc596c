#!/usr/bin/env bash
# `sensorwatch notify`'s exec children (SPEC §17, "Children") against a private journald,
# each case while a second exec target goes on delivering (its calls recorded):
#  - a program that never reads its standard input (an event larger than a pipe) and never
#    exits, ignoring SIGTERM: killed at its timeout with what it started (its group), reaped
#    (nothing of it left in /proc), and notify stops within a second on SIGTERM;
#  - a shell wrapper whose grandchild holds the pipes (`sleep 1000 & cat; exit 75`): the
#    grandchild is gone, not left running;
#  - a removed program: retried until a short `giveUp`, then logged at err as undeliverable
#    and skipped, for good (a restart does not bring it back), and the next event delivered;
#  - a descriptor notify inherited without close-on-exec does not reach the program
#    (`ls /proc/self/fd` from it).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
# A wedged notifier (the old binary, blocked in a write to a program's stdin) does not
# answer SIGTERM: it is killed first.
children_exit() {
    if [ -n "${NOTIFY_PID:-}" ]; then kill -KILL "$NOTIFY_PID" 2>/dev/null || true; fi
    notify_test_exit
}
trap children_exit EXIT
on_fail() { echo "--- notify stderr"; tail -20 "$WORK/notify.stderr" 2>/dev/null; }

start_journald
mkdir -p "$WORK/state" "$WORK/out"
OUT=$WORK/out

# The second target: records each call's rule.
cat >"$WORK/record.sh" <<SH
#!/bin/sh
cat >/dev/null
echo "\$ALERT_RULE" >>$OUT/recorded
SH
chmod +x "$WORK/record.sh"
recorded() { [ -e "$OUT/recorded" ] && grep -qx "$1" "$OUT/recorded"; }

# An alert event like alert_event's, its message $2 bytes long (the JSON on stdin as long).
event_of_size() { # RULE MESSAGE_BYTES
    { printf 'MESSAGE=%s\n' "$(head -c "$2" /dev/zero | tr '\0' x)"
      cat <<ENTRY
PRIORITY=2
SYSLOG_IDENTIFIER=sensorwatch
MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769
ALERT_RULE=$1
ALERT_STATE=firing
ALERT_SEVERITY=critical
ALERT_THRESHOLD=80
SENSOR_ID=sim:cpu
SENSOR_LABEL=CPU package
SENSOR_QUANTITY=temperature
SENSOR_VALUE=85
SENSOR_UNIT=°C
ENTRY
    } | logger --journald
}

# Whether process $1 is gone: not running, not a zombie (reaped).
gone() { [ ! -e "/proc/$1" ]; }
# Whether process $1 runs (a zombie does not).
running() { [ -e "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" != Z ]; }
err_entry() { journalctl --sync; journalctl --no-pager -o cat -t sensorwatch -p err | grep -qF -- "$1"; }
warning_entry() { journalctl --sync; journalctl --no-pager -o cat -t sensorwatch -p warning | grep -qF -- "$1"; }

start_notify() { # CONFIG
    rm -f "$WORK/state/notify.json"
    "$BIN" notify --config "$1" --state "$WORK/state/notify.json" 2>>"$WORK/notify.stderr" &
    NOTIFY_PID=$!
    wait_for "notify.json" 100 test -s "$WORK/state/notify.json"
}
# Keeps notify.json: the kept targets resume after their cursors (no wait for READY needed).
restart_notify() { # CONFIG
    "$BIN" notify --config "$1" --state "$WORK/state/notify.json" 2>>"$WORK/notify.stderr" &
    NOTIFY_PID=$!
}
# SIGTERM: notify exits 0 within a second, whatever its children do.
sigterm_notify() {
    local start ms
    start=$(date +%s%N)
    kill -TERM "$NOTIFY_PID"
    wait_for_exit "notify to end on SIGTERM (else it is wedged)" "$NOTIFY_PID" 30
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    wait "$NOTIFY_PID" || fail "notify exited with $? on SIGTERM"
    NOTIFY_PID=
    [ "$ms" -lt 1000 ] || fail "SIGTERM took ${ms} ms"
    rm -f /run/sensorwatch-notify/wake
}
config() { # FILE CASE-TARGET
    cat >"$1" <<JSON
{ notify: [
  { exec: ["$WORK/record.sh"], rule: "rec-*" },
  $2,
] }
JSON
    "$BIN" check --config "$1" >/dev/null || fail "check refuses $1"
}

# 1. Never reads stdin (100 KB of event, more than a pipe holds), never exits, ignores SIGTERM.
cat >"$WORK/silent.sh" <<SH
#!/bin/sh
sleep 1000 &
echo "\$\$ \$!" >>$OUT/silent.pids
trap '' TERM
exec sleep 1000
SH
chmod +x "$WORK/silent.sh"
config "$WORK/silent.json5" "{ exec: [\"$WORK/silent.sh\"], rule: \"silent-*\", timeout: \"1s\" }"
start_notify "$WORK/silent.json5"
event_of_size silent-big 100000
wait_for "the silent program's start" 100 test -s "$OUT/silent.pids"
read -r child grandchild <"$OUT/silent.pids"
event_of_size rec-1 10
wait_for "the other target's delivery while the program sits on its stdin" 100 recorded rec-1
wait_for "the timeout's kill (SIGTERM, SIGKILL 5 s later)" 150 \
    warning_entry "silent-big firing on $(hostname) (sim:cpu) not delivered (killed after the timeout of 1s)"
wait_for "the program reaped (gone from /proc)" 50 gone "$child"
wait_for "its grandchild gone with its group" 50 gone "$grandchild"
event_of_size rec-2 10
wait_for "the other target's delivery after the kill" 100 recorded rec-2
# A retry is running now or soon: the stop does not wait for it and leaves nothing behind.
started_twice() { [ "$(grep -c . "$OUT/silent.pids")" -ge 2 ]; }
wait_for "the retry's start" 100 started_twice
sigterm_notify
while read -r child grandchild; do
    wait_for "the stopped retry's program ($child) gone" 30 gone "$child"
    wait_for "the stopped retry's grandchild ($grandchild) gone" 30 gone "$grandchild"
done <"$OUT/silent.pids"
note "a program that never reads stdin: killed at its timeout with its group, reaped"

# 2. A shell wrapper whose grandchild holds the pipes.
cat >"$WORK/wrapper.sh" <<SH
#!/bin/sh
sleep 1000 &
echo \$! >>$OUT/wrapper.pids
cat >/dev/null
exit 75
SH
chmod +x "$WORK/wrapper.sh"
config "$WORK/wrapper.json5" "{ exec: [\"$WORK/wrapper.sh\"], rule: \"wrapper-*\", timeout: \"1s\" }"
start_notify "$WORK/wrapper.json5"
event_of_size wrapper-1 10
wait_for "the wrapper's start" 100 test -s "$OUT/wrapper.pids"
read -r grandchild <"$OUT/wrapper.pids"
event_of_size rec-3 10
wait_for "the other target's delivery" 100 recorded rec-3
wait_for "the wrapper's exit 75" 100 warning_entry "wrapper-1 firing on $(hostname) (sim:cpu) not delivered (exit status 75"
wait_for "the grandchild gone" 80 gone "$grandchild"
sigterm_notify
while read -r grandchild; do wait_for "grandchild $grandchild gone" 30 gone "$grandchild"; done <"$OUT/wrapper.pids"
note "a wrapper's grandchild does not outlive it"

# 3. A removed program: given up after giveUp, for good; the next event delivered.
config "$WORK/gone.json5" "{ exec: [\"$WORK/gone.sh\"], rule: \"gone-*\", giveUp: \"3s\" }"
start_notify "$WORK/gone.json5"
event_of_size gone-1 10
wait_for "a retry of the removed program" 50 \
    warning_entry "gone-1 firing on $(hostname) (sim:cpu) not delivered (cannot start $WORK/gone.sh: No such file or directory)"
event_of_size rec-4 10
wait_for "the other target's delivery" 100 recorded rec-4
wait_for "the undeliverable entry at err" 100 err_entry \
    "exec $WORK/gone.sh: gone-1 firing on $(hostname) (sim:cpu) undeliverable: not delivered within 3s of its first try (cannot start $WORK/gone.sh: No such file or directory); skipped"
sigterm_notify
# The program is back; the skipped event does not come again after the restart.
cat >"$WORK/gone.sh" <<SH
#!/bin/sh
cat >/dev/null
echo "\$ALERT_RULE" >>$OUT/gone-calls
SH
chmod +x "$WORK/gone.sh"
restart_notify "$WORK/gone.json5"
event_of_size gone-2 10
wait_for "the next event's delivery" 100 test -s "$OUT/gone-calls"
event_of_size rec-5 10
wait_for "the other target's delivery" 100 recorded rec-5
[ "$(paste -sd, "$OUT/gone-calls")" = gone-2 ] || fail "after the give-up: $(paste -sd, "$OUT/gone-calls")"
sigterm_notify
note "a removed program: given up after giveUp, the next event delivered"

# 4. No descriptor of notify beyond 0-2 reaches the program, one it inherited without
#    close-on-exec (fd 7) included.
cat >"$WORK/fds.sh" <<SH
#!/bin/sh
cat >/dev/null
ls /proc/self/fd | sort -n | paste -sd' ' >$OUT/fds
SH
chmod +x "$WORK/fds.sh"
config "$WORK/fds.json5" "{ exec: [\"$WORK/fds.sh\"], rule: \"fds-*\" }"
exec 7>"$WORK/inherited"
start_notify "$WORK/fds.json5"
exec 7>&-
event_of_size fds-1 10
event_of_size rec-6 10
wait_for "the program's list of descriptors" 100 test -s "$OUT/fds"
wait_for "the other target's delivery" 100 recorded rec-6
# ls's own descriptor of /proc/self/fd is the 3.
[ "$(cat "$OUT/fds")" = "0 1 2 3" ] || fail "the program got descriptors $(cat "$OUT/fds") (0 1 2, and ls's 3, expected)"
sigterm_notify
[ "$(paste -sd, "$OUT/recorded")" = "rec-1,rec-2,rec-3,rec-4,rec-5,rec-6" ] || fail "recorded: $(paste -sd, "$OUT/recorded")"
note "notify children: ok"
