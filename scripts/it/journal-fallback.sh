#!/usr/bin/env bash
# Without journald no alert is lost: events go to stderr with their `<N>` priority prefix,
# and once journald is back they go to the journal again.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_journal_test

# firing at 1 s with no journald; journald starts at about 2.5 s; resolved at 5 s.
write_scenario "$WORK/scenario.json5" "[[0, 50], [1, 85], [2, 86], [3, 87], [4, 86], [5, 50]]"
write_config "$WORK/sensorwatch.json5" "scenario.json5"
mkdir -p "$WORK/state"
STATE_DIRECTORY=$WORK/state "$BIN" run --config "$WORK/sensorwatch.json5" 2>"$WORK/stderr" &
pid=$!
wait_for "the firing line on stderr" 100 grep -q '^<2>cpu-hot firing' "$WORK/stderr"
start_journald
wait_for "the resolved entry in the journal" 150 has_state resolved
kill -TERM "$pid"
wait "$pid" || fail "run exited with $? on SIGTERM"

grep -qx '<2>cpu-hot firing: sim:cpu (CPU package) 85 °C above 80 °C' "$WORK/stderr" \
    || fail "no firing line with <2> on stderr: $(cat "$WORK/stderr")"
grep -q 'writing events to stderr' "$WORK/stderr" || fail "the switch to stderr was not reported"
if grep -q 'resolved' "$WORK/stderr"; then fail "resolved went to stderr although journald was back"; fi
[ "$(count_state firing)" = 0 ] || fail "firing reached a journal that did not exist yet?"
grep -q '^<6>starting: 1 source, 1 rule; open-file limit ' "$WORK/stderr" || fail "no starting line on stderr"
# The starting entry and the firing went to stderr.
journal_json | jq -r .MESSAGE | grep -q '^journal reachable again; 2 entries went to stderr' \
    || fail "the return of the journal was not reported"
note "stderr while journald was away, the journal once it came back"
