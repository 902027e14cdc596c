#!/usr/bin/env bash
# `sensorwatch notify --directory` on a fleet's collector (SPEC §13, §17): a real
# systemd-journal-remote on 127.0.0.1 writes what systemd-journal-upload sends from this
# namespace's journald; one notifier follows the collector's directory and delivers each
# alert event once with the host it came from, also across a kill -9 and restart.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
REMOTE=/lib/systemd/systemd-journal-remote
UPLOAD=/lib/systemd/systemd-journal-upload
[ -x "$REMOTE" ] || need /lib/systemd/systemd-journal-remote systemd-journal-remote
[ -x "$REMOTE" ] || skip "no systemd-journal-remote"
setup_journal_test
need logger bsdutils
PORT=19542
trap notify_test_exit EXIT
on_fail() { echo "--- notify stderr"; cat "$WORK/notify.stderr" 2>/dev/null; ls -l "$WORK/remote"; }

start_journald
mkdir -p "$WORK/remote" "$WORK/state" "$WORK/out"
"$REMOTE" --listen-http="127.0.0.1:$PORT" --output="$WORK/remote/" 2>"$WORK/remote.log" &
HELPER_PIDS+=($!)
wait_for "journal-remote on port $PORT" 100 listening "$PORT"
"$UPLOAD" --url="http://127.0.0.1:$PORT" --save-state="$WORK/upload.state" 2>"$WORK/upload.log" &
HELPER_PIDS+=($!)
wait_for "the collector's first file" 100 sh -c "ls $WORK/remote/*.journal >/dev/null 2>&1"

cat >"$WORK/page.sh" <<SH
#!/bin/sh
echo "\$ALERT_STATE \$ALERT_RULE \$ALERT_HOST" >>$WORK/out/events
SH
chmod +x "$WORK/page.sh"
cat >"$WORK/sensorwatch.json5" <<JSON
{ notify: [ { exec: ["$WORK/page.sh"] } ] }
JSON
start_notify() {
    "$BIN" notify --config "$WORK/sensorwatch.json5" --directory "$WORK/remote" \
        --state "$WORK/state/notify.json" 2>>"$WORK/notify.stderr" &
    NOTIFY_PID=$!
    wait_for "notify.json" 100 test -s "$WORK/state/notify.json"
}
delivered() { [ -e "$WORK/out/events" ] && [ "$(grep -c . "$WORK/out/events")" -ge "$1" ]; }

start_notify
keep_snapshot
alert_event firing cpu-hot critical
wait_for "the first delivery through the collector" 150 delivered 1
wait_for "its cursor in notify.json" 100 kept_since
kill -KILL "$NOTIFY_PID"; wait "$NOTIFY_PID" 2>/dev/null || true; NOTIFY_PID=
alert_event resolved cpu-hot critical
# Written while notify is down: in the collector's files before it starts again.
wait_for "the resolved entry in the collector's files" 150 eval 'journalctl -q --no-pager -D "$WORK/remote" ALERT_STATE=resolved 2>/dev/null | grep -q .'
start_notify
wait_for "the delivery after the restart" 150 delivered 2
# A later event, so that a second delivery of either would be there before it.
alert_event repeat cpu-hot critical
wait_for "the delivery of a later event" 150 delivered 3
host=$(hostname)
[ "$(paste -sd, "$WORK/out/events")" = "firing cpu-hot $host,resolved cpu-hot $host,repeat cpu-hot $host" ] \
    || fail "deliveries: $(paste -sd, "$WORK/out/events")"
jq -e --arg d "$WORK/remote" '[.targets[].cursors[$d]] | all(. != null)' "$WORK/state/notify.json" >/dev/null \
    || fail "the cursor is not kept per directory: $(cat "$WORK/state/notify.json")"
note "notify --directory: ok"
