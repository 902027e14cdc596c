#!/usr/bin/env bash
# journald killed (SIGKILL) in the middle of a run and started again: events while it is
# down go to stderr with `<N>` prefixes, afterwards to the journal again, and the union is
# exactly what `simulate` says the scenario produces: none lost, none twice.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

# About five events a second for 6 s: firing above 80, resolved at or below 80.
write_sine_scenario "$WORK/scenario.json5" 6s 50ms 400ms
write_config "$WORK/sensorwatch.json5" scenario.json5
expected_messages "$WORK/sensorwatch.json5" >"$WORK/expected"
want=$(grep -c . "$WORK/expected")

start_journald
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
wait_for "the first alerts in the journal" 100 has_state firing 3
kill -KILL "$JOURNALD_PID"
wait "$JOURNALD_PID" 2>/dev/null || true   # bash reports "Killed" here
JOURNALD_PID=
wait_for "alerts on stderr while journald is down" 100 grep -q '^<2>cpu-hot firing' "$WORK/stderr"
wait_for "more alerts on stderr" 100 eval '[ "$(stderr_messages "$WORK/stderr" | grep -c .)" -ge 4 ]'
start_journald
# Messages repeat (the same value every period), so wait for the count, not a text.
wait_for "all $want expected alerts" 150 eval '[ "$( (journal_messages; stderr_messages "$WORK/stderr") | grep -c .)" -ge "$want" ]'
stop_within_1s "$pid" TERM
pid=

journal_messages >"$WORK/journal"
stderr_messages "$WORK/stderr" >"$WORK/fallback"
cat "$WORK/journal" "$WORK/fallback" >"$WORK/delivered"
note "expected $(grep -c . "$WORK/expected"), journal $(grep -c . "$WORK/journal"), stderr $(grep -c . "$WORK/fallback")"
expect_same_alerts "$WORK/expected" "$WORK/delivered"
grep -qx '<4>sensorwatch: sending to the journal failed: Connection refused; writing events to stderr' "$WORK/stderr" \
    || grep -qx '<4>sensorwatch: no journal socket at /run/systemd/journal/socket; writing events to stderr' "$WORK/stderr" \
    || fail "the switch to stderr was not reported: $(head -n 3 "$WORK/stderr")"
journal_notes | grep -qE "^5 journal reachable again; $(grep -c . "$WORK/fallback") entries went to stderr" \
    || fail "the return of the journal was not reported with the count: $(journal_notes)"
note "none lost, none twice across a journald kill and restart"
