#!/usr/bin/env bash
# `sensorwatch notify` with an exec target against a private journald (SPEC §17): each event
# reaches the program once, with its JSON on stdin and its environment; a notifier killed
# with SIGKILL between two events and started again delivers what came while it was down,
# nothing lost and nothing twice; exit 75 is retried, another exit is not; --test; SIGTERM
# stops within a second; SIGHUP re-reads the notify list; a journald restart loses nothing;
# the daemon's wake delivers an entry journald has not told its readers of; a rule's
# annotations (SPEC §21) reach the program from the daemon's entry; check validates it.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
# journald may be stopped (SIGSTOP) when a check fails: it is let go on before its stop.
trap 'kill -CONT "${JOURNALD_PID:-}" 2>/dev/null || true; stop_notify; stop_journald' EXIT

start_journald
mkdir -p "$WORK/state" "$WORK/out"

# The target: appends "STATE RULE SENSOR ALERT_HOST" and the stdin JSON to out/events; a rule
# named flaky-* exits 75 the first time (then delivers), broken-* exits 3.
# The program gets only the event's environment (and PATH), so its output path is written in.
cat >"$WORK/page.sh" <<SH
#!/bin/sh
OUT=$WORK/out
SH
cat >>"$WORK/page.sh" <<'SH'
json=$(cat)
case "$ALERT_RULE" in
  flaky-*) if [ ! -e "$OUT/flaky-seen" ]; then touch "$OUT/flaky-seen"; exit 75; fi ;;
  broken-*) echo "no route to the pager" >&2; echo "second line" >&2; exit 3 ;;
esac
echo "$ALERT_STATE $ALERT_RULE $SENSOR_ID $ALERT_HOST $ALERT_SEVERITY" >>"$OUT/events"
printf '%s\n' "$json" >>"$OUT/json"
printf '%s|%s|%s\n' "$ALERT_SUMMARY" "$ALERT_DESCRIPTION" "$ALERT_RUNBOOK" >>"$OUT/annotations"
SH
chmod +x "$WORK/page.sh"
cat >"$WORK/sensorwatch.json5" <<JSON
{ notify: [ { exec: ["$WORK/page.sh"], severity: ["critical", "warning"] } ] }
JSON

delivered() { [ -e "$WORK/out/events" ] && [ "$(grep -c . "$WORK/out/events")" -ge "$1" ]; }
start_notify() {
    "$BIN" notify --config "$WORK/sensorwatch.json5" --state "$WORK/state/notify.json" \
        2>>"$WORK/notify.stderr" &
    NOTIFY_PID=$!
    wait_for "notify.json" 100 test -s "$WORK/state/notify.json"
}

"$BIN" check --config "$WORK/sensorwatch.json5" >/dev/null || fail "check refuses the notify list"

# History before the first start is not replayed.
alert_event firing old-news critical
start_notify
keep_snapshot
alert_event firing cpu-hot critical
wait_for "the first delivery" 100 delivered 1
wait_for "its cursor in notify.json" 100 kept_since
[ "$(cat "$WORK/out/events")" = "firing cpu-hot sim:cpu $(hostname) critical" ] \
    || fail "first delivery: $(cat "$WORK/out/events")"
json=$(head -1 "$WORK/out/json")
[ "$(jq -r '[.event,.rule,.sensor,.label,.quantity,.value,.unit,.threshold,.severity,.host] | join(",")' <<<"$json")" \
    = "firing,cpu-hot,sim:cpu,CPU package,temperature,85,°C,80,critical,$(hostname)" ] || fail "stdin JSON: $json"
jq -e '.time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$")' <<<"$json" >/dev/null || fail "time: $json"

# kill -9 between two events; the events written while it is down come after the restart, once.
kill -KILL "$NOTIFY_PID"
wait "$NOTIFY_PID" 2>/dev/null || true
NOTIFY_PID=
alert_event resolved cpu-hot critical
alert_event firing info-only info          # filtered out by severity
alert_event repeat cpu-hot warning
start_notify
wait_for "the deliveries after the restart" 100 delivered 3

# journald restarts under a running notifier: the next event still arrives, once. It is
# also the later event that shows the restart delivered those three once, and not info-only.
stop_journald
start_journald
alert_event firing after-restart critical
wait_for "the delivery after journald's restart" 100 delivered 4
[ "$(cut -d' ' -f1,2 "$WORK/out/events" | paste -sd,)" = "firing cpu-hot,resolved cpu-hot,repeat cpu-hot,firing after-restart" ] \
    || fail "after the restart and journald's: $(paste -sd, "$WORK/out/events")"

# Exit 75 is tried again (after 1 s) and then delivered; another exit is logged, not retried.
alert_event firing broken-pager critical
alert_event firing flaky-pager critical
wait_for "the retried delivery" 60 delivered 5
[ "$(tail -1 "$WORK/out/events" | cut -d' ' -f2)" = flaky-pager ] || fail "flaky: $(tail -1 "$WORK/out/events")"
journalctl --sync
journalctl --no-pager -o cat -t sensorwatch -p err | grep -q 'broken-pager firing .*exit status 3: no route to the pager; not trying again' \
    || fail "the failed delivery is not logged at err: $(journalctl --no-pager -o cat -t sensorwatch | tail -5)"
journalctl --no-pager -o cat -t sensorwatch -p warning | grep -q 'flaky-pager firing .*exit status 75.*trying again in 1s' \
    || fail "the retry is not logged"

# SIGHUP re-reads the list: a second target (info only) starts at the end of the journal.
cat >"$WORK/sensorwatch.json5" <<JSON
{ notify: [
  { exec: ["$WORK/page.sh"], severity: ["critical", "warning"] },
  { exec: ["$WORK/page.sh", "second"], severity: ["info"] },
] }
JSON
kill -HUP "$NOTIFY_PID"
wait_for "the second target's cursor" 50 grep -q second "$WORK/state/notify.json"
alert_event firing late-info info
wait_for "the second target's delivery" 50 delivered 6
[ "$(tail -1 "$WORK/out/events" | cut -d' ' -f2)" = late-info ] || fail "after SIGHUP: $(tail -1 "$WORK/out/events")"

# The daemon's wake (SPEC §17, docs/decisions.md): the socket is there for the daemon's
# dynamic user to write to, and an entry journald has written but not told its readers of
# yet (journald stopped before its post-change timer of up to 250 ms) is delivered on the
# wake alone. Tried again when journald told them first (its timer beat the SIGSTOP).
sock=/run/sensorwatch-notify/wake
[ -S "$sock" ] || fail "no wake socket at $sock"
[ "$(stat -c %a "$sock")" = 666 ] || fail "wake socket mode $(stat -c %a "$sock")"
written() { journalctl --no-pager -o cat "ALERT_RULE=$1" | grep -q .; }
woken=
for try in 1 2 3 4 5; do
    n=$(grep -c . "$WORK/out/events")
    alert_event firing "woken-$try" critical
    wait_for "journald to write woken-$try" 50 written "woken-$try"
    kill -STOP "$JOURNALD_PID"
    # A fixed time: whether journald told its readers before it stopped shows only as a
    # delivery that comes (nothing marks one that will not); 1 s is longer than one takes.
    sleep 1
    if delivered $((n + 1)); then
        note "try $try: journald told its readers before it was stopped"
        kill -CONT "$JOURNALD_PID"
        continue
    fi
    send_wake
    wait_for "the delivery of woken-$try on the wake alone" 50 delivered $((n + 1))
    kill -CONT "$JOURNALD_PID"
    woken=$try
    break
done
[ -n "$woken" ] || fail "journald always told its readers first: the wake was not tried"
[ "$(tail -1 "$WORK/out/events" | cut -d' ' -f2)" = "woken-$woken" ] || fail "woken: $(tail -1 "$WORK/out/events")"
note "delivered on the daemon's wake alone (try $woken)"

# A rule's annotations (SPEC §21), end to end: the daemon's entry carries them, the program
# gets them as JSON keys and environment variables; a rule without them gets no keys and
# empty variables.
write_scenario "$WORK/annotated.json5" "[[0, 85], [1, 50]]"
cat >"$WORK/daemon.json5" <<'JSON'
{
  interval: "100ms",
  sources: [ { type: "simulated", scenario: "annotated.json5", interval: "100ms" } ],
  rules: [ { name: "annotated", sensor: "sim:cpu", above: 80, severity: "critical",
             summary: "CPU too hot", description: "Line one,\nline \"two\"",
             runbook: "https://wiki.example/runbooks/annotated#cpu" } ],
}
JSON
"$BIN" check --config "$WORK/daemon.json5" >/dev/null || fail "check refuses the annotated rule"
n=$(grep -c . "$WORK/out/events")
mkdir -p "$WORK/daemon-state"
STATE_DIRECTORY=$WORK/daemon-state "$BIN" run --config "$WORK/daemon.json5" 2>"$WORK/daemon.stderr" &
daemon=$!
wait_for "the annotated firing and resolved" 100 delivered $((n + 2))
kill -TERM "$daemon"
wait "$daemon" || fail "run exited with $? on SIGTERM"
entry=$(journalctl --no-pager -o json ALERT_RULE=annotated ALERT_STATE=firing)
[ "$(jq -r '[.ALERT_SUMMARY, .ALERT_DESCRIPTION, .ALERT_RUNBOOK] | join("|")' <<<"$entry")" \
    = 'CPU too hot|Line one,
line "two"|https://wiki.example/runbooks/annotated#cpu' ] || fail "the journal entry's annotations: $entry"
json=$(grep '"rule":"annotated"' "$WORK/out/json" | head -1)
[ "$(jq -r '[.summary, .description, .runbook] | join("|")' <<<"$json")" \
    = 'CPU too hot|Line one,
line "two"|https://wiki.example/runbooks/annotated#cpu' ] || fail "stdin JSON's annotations: $json"
[ "$(jq -r 'keys_unsorted | .[-3:] | join(",")' <<<"$json")" = "summary,description,runbook" ] \
    || fail "the annotations do not end the JSON: $json"
[ "$(grep -c '^CPU too hot|Line one,$' "$WORK/out/annotations")" = 2 ] \
    || fail "environment: $(cat "$WORK/out/annotations")"
grep -q '^line "two"|https://wiki.example/runbooks/annotated#cpu$' "$WORK/out/annotations" \
    || fail "environment: $(cat "$WORK/out/annotations")"
[ "$(head -1 "$WORK/out/annotations")" = "||" ] || fail "a rule without annotations: $(head -1 "$WORK/out/annotations")"
head -1 "$WORK/out/json" | jq -e 'has("summary") or has("description") or has("runbook") | not' >/dev/null \
    || fail "a rule without annotations has annotation keys: $(head -1 "$WORK/out/json")"

# SIGTERM: exit 0 within a second; the wake socket is removed.
total=$(grep -c . "$WORK/out/events")
start=$(date +%s%N)
kill -TERM "$NOTIFY_PID"
wait "$NOTIFY_PID" || fail "notify exited with $? on SIGTERM"
NOTIFY_PID=
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 1000 ] || fail "SIGTERM took ${ms} ms"
[ "$(grep -c . "$WORK/out/events")" = "$total" ] || fail "events doubled: $(paste -sd, "$WORK/out/events")"
[ ! -e "$sock" ] || fail "the wake socket outlived notify"

# --test: a firing and a resolved to every target, filters aside.
: >"$WORK/out/events"
"$BIN" notify --config "$WORK/sensorwatch.json5" --test >"$WORK/test.out" || fail "--test: $(cat "$WORK/test.out")"
[ "$(grep -c ': firing delivered$\|: resolved delivered$' "$WORK/test.out")" = 4 ] || fail "--test output: $(cat "$WORK/test.out")"
[ "$(grep -c 'sensorwatch-test sim:test' "$WORK/out/events")" = 4 ] || fail "--test deliveries: $(cat "$WORK/out/events")"
cat >"$WORK/bad.json5" <<JSON
{ notify: [ { exec: ["$WORK/page.sh"] }, { exec: ["/nonexistent/pager"] } ] }
JSON
if "$BIN" notify --config "$WORK/bad.json5" --test >"$WORK/test.out"; then fail "--test with a missing program exits 0"; fi
grep -q '^exec /nonexistent/pager: firing not delivered: cannot start /nonexistent/pager: No such file or directory$' "$WORK/test.out" \
    || fail "--test output: $(cat "$WORK/test.out")"
note "notify exec: ok"
