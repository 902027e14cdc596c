#!/usr/bin/env bash
# The state file corrupt or truncated, its directory read-only or full: never fatal, the
# problem is logged once at warning (4) naming the file and what went wrong, and every alert
# is still delivered exactly once.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test

write_scenario "$WORK/scenario.json5" "[[0, 50], [0.5, 85], [1, 86], [1.5, 50]]"
write_config "$WORK/sensorwatch.json5" scenario.json5
expected_messages "$WORK/sensorwatch.json5" >"$WORK/expected"
[ "$(grep -c . "$WORK/expected")" = 2 ] || fail "the scenario should fire and resolve once: $(cat "$WORK/expected")"
start_journald

# Runs the daemon with state in $1 until the resolved arrives; leaves its notes in $WORK/notes.
run_case() { # NAME STATE_DIRECTORY
    STATE_DIR=$2 start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr.$1"
    cases=$((cases + 1))
    wait_for "the resolved of case $1" 100 has_state resolved "$cases"
    stop_within_1s "$pid" TERM
    journal_json _PID="$pid" | jq -r 'select(.ALERT_STATE != null) | .MESSAGE' >"$WORK/journal.$1"
    journal_json _PID="$pid" | jq -r 'select(.ALERT_STATE == null) | "\(.PRIORITY) \(.MESSAGE)"' \
        | grep -v '^6 ' >"$WORK/notes" || true
    pid=
    expect_same_alerts "$WORK/expected" "$WORK/journal.$1"
    [ -z "$(stderr_messages "$WORK/stderr.$1")" ] || fail "case $1: alerts on stderr"
}
# Fails unless the notes of the last case are exactly the lines of stdin (regexes).
expect_notes() { # NAME
    local want
    want=$(cat)
    [ "$(grep -c . "$WORK/notes" || true)" = "$(grep -c . <<<"$want")" ] \
        || fail "case $1: expected $(grep -c . <<<"$want") note(s), got: $(cat "$WORK/notes")"
    paste -d '\n' <(echo "$want") "$WORK/notes" | while read -r re && read -r line; do
        grep -qE -- "^$re\$" <<<"$line" || fail "case $1: '$line' does not match '$re'"
    done
}
S=$WORK/state-
cases=0
Q='[0-9TZ]+'

mkdir -p "${S}corrupt" && printf 'not json {' >"${S}corrupt/state.json"
run_case corrupt "${S}corrupt"
expect_notes corrupt <<X
4 ${S}corrupt/state.json: not a valid state file \(.*\); moved to ${S}corrupt/state.json.corrupt-$Q, starting without kept alert state
X
ls "${S}corrupt"/state.json.corrupt-* >/dev/null || fail "the corrupt file was not set aside"

mkdir -p "${S}truncated"
printf '{"version":1,"alerts":[{"rule":"cpu-hot","sensor":"sim:cpu","label":"CPU pa' >"${S}truncated/state.json"
run_case truncated "${S}truncated"
expect_notes truncated <<X
4 ${S}truncated/state.json: not a valid state file \(.*\); moved to ${S}truncated/state.json.corrupt-$Q, starting without kept alert state
X
jq -e '.alerts == []' "${S}truncated/state.json" >/dev/null || fail "the new state file is not empty after resolving"

# Read-only: a tmpfs remounted read-only.
mkdir -p "${S}ro" && mount -t tmpfs -o size=64k none "${S}ro" && mounted+=("${S}ro")
mount -o remount,ro "${S}ro"
run_case ro "${S}ro"
expect_notes ro <<X
4 cannot keep alert state: ${S}ro/state.json.tmp: open: Read-only file system; alerts keep working, a restart may log them again
X

# Full: a 4 KiB tmpfs filled to the last byte.
mkdir -p "${S}full" && mount -t tmpfs -o size=4k none "${S}full" && mounted+=("${S}full")
dd if=/dev/zero of="${S}full/filler" bs=1k count=64 status=none 2>/dev/null || true
run_case full "${S}full"
expect_notes full <<X
4 cannot keep alert state: ${S}full/state.json.tmp: write: No space left on device; alerts keep working, a restart may log them again
X
note "corrupt, truncated, read-only and full state: logged once, alerts delivered"
