#!/usr/bin/env bash
# A thousand thermal zones and few open files (issue 15, item 5). Each sensor keeps its file
# open, and systemd gives a service a soft limit of 1024 open files: the commands that read
# sensors raise the soft limit to the hard one at start. With the hard limit at 256 even
# that cannot help: `run` says so in one journal entry (MESSAGE_ID openFileLimit) with how
# many sensors are left unread, each fault reason is in words (`Too many open files`, never
# `errno 24`), and `sensors` says it on stderr. With only the soft limit at 256, every zone
# is read.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
source "$ROOT/bench/lib.sh"
setup_fault_test
ZONES=1000
LIMIT_ID=5ceae26f25ee44e1a107894b4222b4f4
[ "$(ulimit -H -n)" = unlimited ] || [ "$(ulimit -H -n)" -ge 2048 ] || skip "needs a hard open-file limit of 2048 or more (have $(ulimit -H -n))"

T=$WORK/tree
mkdir -p "$T"
mount -t tmpfs -o size=64m none "$T"
mounted+=("$T")
write_thermal_zones "$T" "$ZONES"
mount --bind "$T" /sys/class/thermal
mounted=(/sys/class/thermal "${mounted[@]}")
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "200ms", sources: [ { type: "thermal" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" } ] }
J
start_journald

# 1. Soft and hard limit 256: raising cannot help.
( ulimit -n 256; exec env STATE_DIRECTORY="$WORK/state" "$BIN" run --config "$WORK/sensorwatch.json5" ) 2>"$WORK/stderr.hard" &
pid=$!
on_fail() { echo "--- stderr:"; grep -v "read failed" "$WORK/stderr.hard" | head; journal_json | jq -r .MESSAGE | sort | uniq -c | sort -rn | head; }
wait_for "the open-file entry" 100 journal_has MESSAGE_ID=$LIMIT_ID
# Further polls: the number stays, so no second entry. A zone the daemon reads turns hot: its
# alert is the later event, a poll after the entry.
put "$T/thermal_zone0/temp" 90000
wait_for "an alert of a poll after the open-file entry" 100 journal_has ALERT_RULE=hot
entries=$(journal_json MESSAGE_ID=$LIMIT_ID)
[ "$(grep -c . <<<"$entries")" = 1 ] || fail "expected one open-file entry, got: $entries"
message=$(jq -r .MESSAGE <<<"$entries")
note "$message"
[[ $message =~ ^([0-9]+)\ of\ $ZONES\ sensors\ are\ left\ unread:\ Too\ many\ open\ files\;\ the\ open-file\ limit\ is\ 256\ \(also\ the\ hard\ limit\) ]] \
    || fail "open-file entry: $message"
unread=${BASH_REMATCH[1]}
[ "$unread" -ge $((ZONES - 256)) ] && [ "$unread" -lt "$ZONES" ] || fail "$unread unread of $ZONES with 256 files"
expect_field "$entries" PRIORITY 3
[ "$(jq -r .CODE_FILE <<<"$entries")" = SensorDaemon/FileShortageTally.swift ] || fail "CODE_FILE: $(jq -r .CODE_FILE <<<"$entries")"
faults=$(journal_json MESSAGE_ID=561c305408854a5aa1633061d1794bd7 SENSOR_STATE=failing | jq -r .SENSOR_FAULT | sort | uniq -c)
note "fault reasons: $faults"
[ "$(jq -r .SENSOR_FAULT <<<"$(journal_json SENSOR_STATE=failing)" | sort -u)" = "EMFILE (Too many open files)" ] \
    || fail "fault reasons are not all 'EMFILE (Too many open files)': $faults"
if journal_json | jq -r .MESSAGE | grep -q 'errno'; then fail "an entry shows an errno number"; fi
kill -TERM "$pid"
wait "$pid" || fail "run exited $? after SIGTERM"
pid=

( ulimit -n 256; exec "$BIN" sensors --config "$WORK/sensorwatch.json5" --json ) >"$WORK/sensors.json" 2>"$WORK/sensors.err" \
    || fail "sensors failed: $(cat "$WORK/sensors.err")"
jq -e --argjson n "$ZONES" 'length == $n' "$WORK/sensors.json" >/dev/null || fail "sensors --json is not $ZONES objects"
errors=$(jq -r '.[] | .error // empty' "$WORK/sensors.json" | sort -u)
[ "$errors" = "EMFILE (Too many open files)" ] || fail "sensors errors: $errors"
grep -q "sensors are left unread: Too many open files; the open-file limit is 256 (also the hard limit)" "$WORK/sensors.err" \
    || fail "sensors says nothing about the limit: $(cat "$WORK/sensors.err")"

# 2. Soft limit 256, hard limit higher: the soft limit is raised, every zone is read.
# What this run logs: the daemon's entries after the $before there are now, those with field $1 = $2.
journalctl --rotate >/dev/null 2>&1 || true
before=$(journal_json | grep -c . || true)
logged() { journal_json | tail -n +$((before + 1)) | jq -c --arg f "$1" --arg v "$2" 'select(.[$f] == $v)'; }
put "$T/thermal_zone0/temp" 50000
( ulimit -S -n 256; exec env STATE_DIRECTORY="$WORK/state" "$BIN" run --config "$WORK/sensorwatch.json5" ) 2>"$WORK/stderr.soft" &
pid=$!
wait_for "the soft limit raised" 50 grep -q "^Max open files  *$(ulimit -H -n)  *$(ulimit -H -n) " "/proc/$pid/limits"
# The last zone turns hot: its alert is the later event, a poll that read every zone.
put "$T/thermal_zone$((ZONES - 1))/temp" 90000
wait_for "the last zone's alert" 100 eval 'logged ALERT_STATE firing | grep -q .'
[ -z "$(logged MESSAGE_ID $LIMIT_ID)" ] || fail "an open-file entry with a hard limit of $(ulimit -H -n)"
[ -z "$(logged SENSOR_STATE failing)" ] || fail "sensors fail with the soft limit raised: $(logged SENSOR_STATE failing | head -n 3)"
kill -TERM "$pid"
wait "$pid" || fail "run exited $? after SIGTERM"
pid=
( ulimit -S -n 256; exec "$BIN" sensors --config "$WORK/sensorwatch.json5" --json ) >"$WORK/sensors.json" 2>"$WORK/sensors.err"
jq -e --argjson n "$ZONES" '[.[] | select(.value != null)] | length == $n' "$WORK/sensors.json" >/dev/null \
    || fail "not every zone read: $(jq -r '.[] | .error // empty' "$WORK/sensors.json" | sort | uniq -c)"
note "hard limit 256: $unread of $ZONES unread, one entry; soft 256, hard $(ulimit -H -n): all $ZONES read"
