#!/usr/bin/env bash
# `sensorwatch notify` honours silences for an exec target (SPEC §21) against a private
# journald: an event an active silence matches is not run; an alert still firing when its
# silence ends (time) or is expired is run then, once, as firing; a resolved whose firing
# was never run is not run; a notifier stopped while it holds an alert back and started
# again still holds it (the silence from the journal, the alert from notify.json) and runs
# it at the expiry. A silence entry another user writes silences nothing.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
need setpriv util-linux
trap 'notify_test_exit' EXIT
start_journald
mkdir -p "$WORK/state" "$WORK/out"

# The target records "STATE RULE" of each call.
cat >"$WORK/page.sh" <<SH
#!/bin/sh
cat >/dev/null
echo "\$ALERT_STATE \$ALERT_RULE" >>$WORK/out/events
SH
chmod +x "$WORK/page.sh"
cat >"$WORK/sensorwatch.json5" <<JSON
{ notify: [ { exec: ["$WORK/page.sh"] } ] }
JSON
start_notify() {
    "$BIN" notify --config "$WORK/sensorwatch.json5" --state "$WORK/state/notify.json" 2>>"$WORK/notify.stderr" &
    NOTIFY_PID=$!
    wait_for "notify.json" 100 test -s "$WORK/state/notify.json"
}
on_fail() { echo "--- calls:"; cat "$WORK/out/events" 2>/dev/null; echo "--- notify:"; cat "$WORK/notify.stderr"; }
calls() { cat "$WORK/out/events" 2>/dev/null | paste -sd, || true; }
called() { grep -qx "$1" "$WORK/out/events" 2>/dev/null; }
count_calls() { grep -cx "$1" "$WORK/out/events" 2>/dev/null || true; }
# A marker event no silence matches: once it is run, everything before it was dealt with.
marker=0
mark() {
    marker=$((marker + 1))
    alert_event firing "marker-$marker" critical
    wait_for "marker-$marker" 100 called "firing marker-$marker"
}
silence() { "$BIN" silence add "$@" 2>/dev/null; }

start_notify

# 1. Silenced, then run at the silence's end (time): once, as firing.
id=$(silence --rule 'fan-*' --for 5s --comment "fan swap")
ends=$(journal_json SILENCE_ID="$id" | jq -r .SILENCE_ENDS)
alert_event firing fan-stopped critical
alert_event repeat fan-stopped critical
mark
! called "firing fan-stopped" || fail "a silenced firing was run: $(calls)"
! called "repeat fan-stopped" || fail "a silenced repeat was run: $(calls)"
wait_for "the held firing at the silence's end" 150 called "firing fan-stopped"
[ "$(date +%s)" -ge "$(date -d "$ends" +%s)" ] || fail "run before the silence ended ($ends)"
mark
[ "$(count_calls 'firing fan-stopped')" = 1 ] || fail "held firing run $(count_calls 'firing fan-stopped') times"
! called "repeat fan-stopped" || fail "the repeat was run too: $(calls)"

# 2. A resolved whose firing was never run is not run, not even after the expiry.
id=$(silence --rule 'disk-*' --for 1h)
alert_event firing disk-hot warning
alert_event resolved disk-hot warning
mark
"$BIN" silence expire "$id" >/dev/null
mark
! grep -q "disk-hot" "$WORK/out/events" || fail "a silenced alert that resolved was run: $(calls)"

# 3. Expired early: the held firing is run at the expiry. A delivered firing's resolved
#    during a silence is silenced like any event.
alert_event firing psu-fail critical
mark
id=$(silence --rule 'psu-*' --for 1h)
alert_event resolved psu-fail critical
alert_event firing psu-volt critical
mark
! called "resolved psu-fail" || fail "a silenced resolved was run: $(calls)"
! called "firing psu-volt" || fail "a silenced firing was run: $(calls)"
"$BIN" silence expire "$id" >/dev/null
wait_for "the held firing at the expiry" 100 called "firing psu-volt"

# 4. A restart of notify in the middle: the silence comes back from the journal, the held
#    alert from notify.json; it is run once, at the expiry after the restart.
id=$(silence --sensor 'sim:gpu' --for 1h)
alert_event firing gpu-hot critical sim:gpu
mark
keep_snapshot
stop_notify
jq -e '[.targets[].held // {} | .[] | .[] | select(.rule == "gpu-hot")] | length == 1' "$WORK/state/notify.json" >/dev/null \
    || fail "notify.json does not hold gpu-hot: $(cat "$WORK/state/notify.json")"
start_notify
alert_event firing gpu-warm warning sim:gpu    # still silenced after the restart
mark
! grep -q "gpu-" "$WORK/out/events" || fail "silenced after the restart, yet run: $(calls)"
"$BIN" silence expire "$id" >/dev/null
wait_for "gpu-hot and gpu-warm at the expiry" 100 sh -c "grep -qx 'firing gpu-hot' '$WORK/out/events' && grep -qx 'firing gpu-warm' '$WORK/out/events'"
mark
[ "$(count_calls 'firing gpu-hot')" = 1 ] || fail "gpu-hot run $(count_calls 'firing gpu-hot') times"

# 5. Forged: a silence entry nobody writes (every field, even SILENCE_BY=root) silences nothing.
forged_silence 00000000-0000-0000-0000-00000000dead
setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" silence add --rule '*' --for 1h >/dev/null 2>&1
alert_event firing cpu-hot critical
wait_for "cpu-hot despite the forged silences" 100 called "firing cpu-hot"
echo "ok: silenced, run at the end and at the expiry, resolved dropped, kept across a restart, forged ignored"
