#!/usr/bin/env bash
# SIGHUP with a configuration that is invalid, has a syntax error, was deleted, is a directory,
# a FIFO or a dangling symlink, and bursts of SIGHUPs (bad, then good configuration): the
# daemon keeps running on the old configuration, each reload logs its one error at priority
# err (3) naming the file and what is wrong, and the scenario playing meanwhile loses and
# repeats no alert.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

write_sine_scenario "$WORK/scenario.json5" 10s 100ms 1s
C=$WORK/sensorwatch.json5
write_config "$C" scenario.json5
cp "$C" "$WORK/good.json5"
expected_messages "$C" >"$WORK/expected"
want=$(grep -c . "$WORK/expected")

start_journald
start_daemon "$C" "$WORK/stderr"
wait_for "the first alert" 100 has_state firing

errors() { journal_json PRIORITY=3 | jq -r .MESSAGE; }
# Puts a bad configuration in place with the command "$@", sends SIGHUP and expects exactly
# one new err line, equal to $1 after the common prefix. A second SIGHUP once the first line
# is there: its line is the later event, after any second line of the first reload.
expect_rejected() { # MESSAGE COMMAND...
    local want="reload failed, keeping the running configuration: $1" n
    shift
    rm -rf "$C"
    "$@"
    n=$(errors | grep -c . || true)
    kill -HUP "$pid"
    wait_for "the error of '$want'" 100 eval '[ "$(errors | grep -c .)" -gt '"$n"' ]'
    kill -HUP "$pid"
    wait_for "the error of the second reload" 100 eval '[ "$(errors | grep -c .)" -gt '"$((n + 1))"' ]'
    errors | tail -n +$((n + 1)) >"$WORK/new-errors"
    [ "$(cat "$WORK/new-errors")" = "$want"$'\n'"$want" ] || fail "expected one err line '$want' a reload, got:
$(cat "$WORK/new-errors")"
    kill -0 "$pid" 2>/dev/null || fail "the daemon died on a reload with a bad configuration"
}
invalid() { sed 's/severity: "critical"/severity: "critical", bogus: 1/' "$WORK/good.json5" >"$C"; }
syntax() { printf "{\n  interval: \"100ms\",\n  sources: [\n" >"$C"; }
expect_rejected "$C: rules[0].bogus: unknown key" invalid
expect_rejected "$C: line 4, column 1: expected a value, found end of file" syntax
expect_rejected "$C: cannot read: No such file or directory" true
expect_rejected "$C: cannot read: Is a directory" mkdir "$C"
expect_rejected "$C: cannot read: not a regular file (a FIFO)" mkfifo "$C"
expect_rejected "$C: cannot read: No such file or directory (a symbolic link to $WORK/missing.json5)" \
    ln -s "$WORK/missing.json5" "$C"

# A burst: every reload that runs logs the error once; bursts may be coalesced.
rm -f "$C"
invalid
n=$(errors | grep -c . || true)
for _ in $(seq 30); do kill -HUP "$pid"; done
wait_for "the burst's errors" 100 eval '[ "$(errors | grep -c .)" -gt '"$n"' ]'

# The good configuration again: reloaded, the unchanged scenario source keeps playing. Its
# line is the later event after the burst's reloads: the daemon lived through them.
cp "$WORK/good.json5" "$C"
kill -HUP "$pid"
wait_for "the good reload" 100 has_note '^6 configuration reloaded: 1 source, 1 rule$'
burst=$(( $(errors | grep -c .) - n ))
[ "$burst" -le 30 ] || fail "$burst err lines for 30 SIGHUPs"
[ -z "$(errors | tail -n +$((n + 1)) | grep -vxF "reload failed, keeping the running configuration: $C: rules[0].bogus: unknown key")" ] \
    || fail "unexpected err lines in the burst: $(errors | tail -n +$((n + 1)) | sort | uniq -c)"
note "30 SIGHUPs: $burst reloads ran, each logged its error once"
# A burst of good reloads: the unchanged source keeps playing, alert state survives each.
for _ in $(seq 30); do kill -HUP "$pid"; done
wait_for "the burst of good reloads" 100 has_note '^6 configuration reloaded: 1 source, 1 rule$' 2
# Messages repeat (the same value every period), so wait for the count, not a text.
wait_for "all $want expected alerts" 200 eval '[ "$( (journal_messages; stderr_messages "$WORK/stderr") | grep -c .)" -ge "$want" ]'
stop_within_1s "$pid" TERM
pid=
journal_messages >"$WORK/journal"
stderr_messages "$WORK/stderr" >>"$WORK/journal"
expect_same_alerts "$WORK/expected" "$WORK/journal"
note "bad reloads rejected one line each at err; no alert lost or doubled"
