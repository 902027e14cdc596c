#!/usr/bin/env bash
# `sensorwatch top` in a real terminal (tmux) against `run` on a fake hwmon tree (SPEC §22):
# the value after a change of temp1_input, a firing rule's row FIRING in red, a hostile
# label escaped, `s` making a silence that `silence list` shows (a private journald), a
# resize to 120×40 and back drawn right, q / SIGTERM / SIGHUP leaving `stty -a` as it was,
# the daemon restarted (the header says gone, then the values return), user nobody, with no
# daemon at start the readers and rules run in top (header `standalone`), and a
# dumb or small terminal refused with one line and exit 1.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/tmux.sh"
setup_journal_test
need tmux tmux
need setpriv util-linux
# Standalone top makes its private directory in /tmp (the namespace has no /run/user).
unset XDG_RUNTIME_DIR
start_journald
daemon=
cleanup() {
    stop_tmux
    if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; fi
    stop_journald
}
trap cleanup EXIT

source "$(dirname "$0")/lib/live.sh"
# The pane's pid file, which top as nobody writes too.
mkdir -p "$WORK/pane" && chmod 1777 "$WORK/pane"

# top_in_pane COLUMNS ROWS [PREFIX]: top in a fresh pane, with `stty -a` before and after
# it and its exit status written beside; its pid in $WORK/pane/top.pid.
top_in_pane() {
    stop_tmux
    rm -f "$WORK/pane/top.pid" "$WORK/top.rc" "$WORK/stty.before" "$WORK/stty.after"
    new_pane "$1" "$2" "stty -a >$WORK/stty.before; ${3:-} sh -c 'echo \$\$ >$WORK/pane/top.pid; LANG=C.UTF-8 exec $BIN top --config $config'; echo \$? >$WORK/top.rc; stty -a >$WORK/stty.after; sleep 60"
    wait_for "top's pid" 50 test -s "$WORK/pane/top.pid"
}
# ended_clean: top exited 0 and the terminal's settings are as they were before it.
ended_clean() {
    wait_for "top's exit" 50 test -s "$WORK/top.rc"
    [ "$(cat "$WORK/top.rc")" = 0 ] || fail "top exited $(cat "$WORK/top.rc") ($1)"
    wait_for "stty after top" 50 test -s "$WORK/stty.after"
    diff "$WORK/stty.before" "$WORK/stty.after" >/dev/null || fail "stty -a differs after $1: $(diff "$WORK/stty.before" "$WORK/stty.after")"
    screen_lacks "sensorwatch" || fail "the alternate screen is still shown after $1"
}

note "no daemon at start: top runs the readers and rules itself"
top_in_pane 80 24
wait_screen "standalone"
wait_screen "50 °C"
tm send-keys -t main q
ended_clean "q standalone"
[ -z "$(ls /tmp | grep sensorwatch-top)" ] || fail "standalone top left its directory: $(ls /tmp | grep sensorwatch-top)"
start_daemon

top_in_pane 80 24
wait_screen "Package id 0"
wait_screen "50 °C"
screen_lacks "standalone" || fail "top with a daemon says standalone"
screen_has 'bad\x1b[2Jlabel' || fail "the hostile label is not shown escaped: $(screen)"
note "a change of temp1_input shows"
echo 61000 >"$h/hwmon0/temp1_input"
wait_screen "61 °C"
note "a firing rule's row says FIRING in red"
echo 91000 >"$h/hwmon0/temp1_input"
wait_screen "FIRING cpu-hot"
screen -e | grep -F "FIRING" | grep -qE $'\e\\[[0-9;]*31m' || fail "FIRING is not red: $(screen -e | grep -F FIRING | cat -v)"
screen | sed -n '1,7s/^/#   /p'
screen | head -1 | grep -qF "firing 1" || fail "the header does not count the firing alert: $(screen | head -1)"

note "s silences the firing alert, as silence add does"
tm send-keys -t main f
wait_screen "[firing only]"
tm send-keys -t main s
wait_screen "silence cpu-hot on hwmon:coretemp-virtual-0/temp1 for [1h]"
tm send-keys -t main Enter
wait_screen "silenced cpu-hot"
"$BIN" silence list >"$WORK/silences" 2>&1 || fail "silence list: $(cat "$WORK/silences")"
grep -qF "cpu-hot" "$WORK/silences" || fail "silence list does not show top's silence: $(cat "$WORK/silences")"
tm send-keys -t main f

note "Enter shows the row's rules, limits and last transitions from the journal"
tm send-keys -t main Home Enter
wait_screen "rules    cpu-hot (critical)"
wait_screen "limits   max 80, crit 100"
wait_screen "last transitions (journal):"
screen | grep -qE "[0-9:]{8}  .*cpu-hot" || fail "no transition of cpu-hot in the details: $(screen)"
tm send-keys -t main Escape
wait_screen "10 MIN"

note "resize to 120×40 and back"
tm resize-window -t main -x 120 -y 40
wait_for "a 120-column header" 50 sh -c "screen_line=\$(tmux -L $TMUX_SERVER capture-pane -t main -p | head -1); [ \${#screen_line} -ge 100 ]"
[ "$(screen | wc -l)" = 40 ] || fail "not 40 lines after the resize"
wait_screen "Package id 0"
screen | grep -F "Package id 0" | grep -qF "91 °C" || fail "the row after the resize: $(screen)"
tm resize-window -t main -x 80 -y 24
wait_for "an 80-column screen" 50 sh -c "[ \$(tmux -L $TMUX_SERVER capture-pane -t main -p | wc -l) = 24 ]"
wait_screen "Package id 0"
screen | grep -F "Package id 0" | grep -qF "91 °C" || fail "the row after resizing back: $(screen)"
[ "$(screen | awk '{ if (length($0) > 80) n++ } END { print n+0 }')" = 0 ] || fail "lines wider than 80 after resizing back"

note "q restores the terminal"
tm send-keys -t main q
ended_clean q

for sig in TERM HUP; do
    note "SIGTERM and SIGHUP restore the terminal: $sig"
    top_in_pane 80 24
    wait_screen "Package id 0"
    kill -"$sig" "$(cat "$WORK/pane/top.pid")"
    ended_clean "SIG$sig"
done

note "the daemon restarted: top says it went and comes back"
top_in_pane 80 24
wait_screen "91 °C"
stop_daemon
wait_screen "daemon gone since"
echo 45000 >"$h/hwmon0/temp1_input"
start_daemon
wait_screen_gone "daemon gone since"
wait_screen "45 °C"
tm send-keys -t main C-c
ended_clean Ctrl-C

note "user nobody can run top; its silence is refused or noted"
echo 92000 >"$h/hwmon0/temp1_input"
top_in_pane 80 24 "setpriv --reuid=65534 --regid=65534 --clear-groups"
wait_screen "Package id 0"
wait_screen "silenced until"  # root's silence of before still holds
tm send-keys -t main f
wait_screen "[firing only]"
tm send-keys -t main s
wait_screen "for [1h]"
tm send-keys -t main Enter
outcome() { screen | grep -qE 'cannot silence|not root'; }
wait_for "the silence's outcome: $(screen | tail -1)" 50 outcome
tm send-keys -t main q
ended_clean "q as nobody"

note "a dumb or small terminal, or none: one line, exit 1"
rc=0
"$BIN" top --config "$config" </dev/null >"$WORK/pipe.out" 2>"$WORK/pipe.err" || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$WORK/pipe.err")" = 1 ] && [ ! -s "$WORK/pipe.out" ] \
    || fail "top in a pipe: exit $rc, $(cat "$WORK/pipe.err")"
stop_tmux
new_pane 70 20 "LANG=C.UTF-8 $BIN top --config $config 2>$WORK/small.err; echo \$? >$WORK/small.rc; sleep 60"
wait_for "top's exit on a small terminal" 50 test -s "$WORK/small.rc"
[ "$(cat "$WORK/small.rc")" = 1 ] || fail "a 70×20 terminal: exit $(cat "$WORK/small.rc")"
[ "$(wc -l <"$WORK/small.err")" = 1 ] && grep -qF "at least 80×24" "$WORK/small.err" || fail "a 70×20 terminal: $(cat "$WORK/small.err")"
stop_tmux
new_pane 100 30 "TERM=dumb $BIN top --config $config 2>$WORK/dumb.err; echo \$? >$WORK/dumb.rc; sleep 60"
wait_for "top's exit on a dumb terminal" 50 test -s "$WORK/dumb.rc"
[ "$(cat "$WORK/dumb.rc")" = 1 ] || fail "TERM=dumb: exit $(cat "$WORK/dumb.rc")"
grep -qF "TERM=dumb" "$WORK/dumb.err" || fail "TERM=dumb: $(cat "$WORK/dumb.err")"
echo "ok"
