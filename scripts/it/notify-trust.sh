#!/usr/bin/env bash
# Trust (SPEC §17): alert entries forged by another user — `logger --journald` run as nobody
# with the exact fields and MESSAGE_ID of a real alert — page nobody and resolve nothing.
# A private journald, an exec target that records its calls, a real prometheus-alertmanager
# on 127.0.0.1: the real firing (root, _UID=0) reaches both; a forged firing reaches neither;
# a forged resolved for the real critical alert leaves it active in Alertmanager; `history`
# (and --json) lists only the real events; notify warns about the look-alikes once.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
need setpriv util-linux
need curl curl
need prometheus-alertmanager prometheus-alertmanager
REMOTE=/lib/systemd/systemd-journal-remote
[ -x "$REMOTE" ] || need /lib/systemd/systemd-journal-remote systemd-journal-remote
[ -x "$REMOTE" ] || skip "no systemd-journal-remote"
AM=127.0.0.1:19200
trap notify_test_exit EXIT
on_fail() {
    echo "--- notify stderr"; cat "$WORK/notify.stderr" 2>/dev/null
    echo "--- calls"; cat "$WORK/out/calls" 2>/dev/null
    echo "--- alertmanager"; tail -5 "$WORK/am.log" 2>/dev/null
}

start_journald
mkdir -p "$WORK/state" "$WORK/am" "$WORK/out"
start_silent_alertmanager "$AM"
HELPER_PIDS+=("$AM_PID")
wait_for "alertmanager" 150 curl -fs "http://$AM/-/ready" -o /dev/null

cat >"$WORK/page.sh" <<SH
#!/bin/sh
echo "\$ALERT_STATE \$ALERT_RULE" >>$WORK/out/calls
SH
chmod +x "$WORK/page.sh"
cat >"$WORK/sensorwatch.json5" <<JSON
{ notify: [ { exec: ["$WORK/page.sh"] }, { alertmanager: "http://$AM", timeout: "5s" } ] }
JSON
"$BIN" notify --config "$WORK/sensorwatch.json5" --state "$WORK/state/notify.json" 2>"$WORK/notify.stderr" &
NOTIFY_PID=$!
wait_for "notify.json" 100 test -s "$WORK/state/notify.json"

# alert_event as user nobody (no groups): the same entry, only journald's _UID differs.
forge() {
    (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups bash -c "$(declare -f alert_event); alert_event $*")
}
alerts() { curl -fs "http://$AM/api/v2/alerts?active=true&silenced=true&inhibited=true&unprocessed=true"; }
active() { [ "$(alerts | jq --arg r "$1" '[.[] | select(.labels.alertname == $r and .status.state == "active")] | length')" = 1 ]; }
called() { [ -e "$WORK/out/calls" ] && grep -qx "$1" "$WORK/out/calls"; }
# Both lanes have read past everything written before: a real event behind it arrived.
delivered() { wait_for "$1 at the exec target" 150 called "firing $1"; wait_for "$1 in alertmanager" 150 active "$1"; }
calls_are() {
    [ "$(paste -sd, "$WORK/out/calls")" = "$1" ] \
        || fail "the exec target was called for a forgery: $(paste -sd, "$WORK/out/calls")"
}

alert_event firing cpu-hot critical
delivered cpu-hot
forge firing disk-full critical
forge resolved cpu-hot critical
alert_event firing marker-1 warning
delivered marker-1
calls_are "firing cpu-hot,firing marker-1"
active cpu-hot || fail "a forged resolved resolved the real cpu-hot: $(alerts)"
[ "$(alerts | jq '[.[] | select(.labels.alertname == "disk-full")] | length')" = 0 ] \
    || fail "a forged firing reached alertmanager: $(alerts)"
journal_has ALERT_RULE=disk-full _UID=65534 || fail "the forgery is not in the journal as nobody's"

# More forgeries within the minute: skipped, and no second warning.
forge firing disk-full critical
forge repeat disk-full critical
alert_event firing marker-2 warning
delivered marker-2
calls_are "firing cpu-hot,firing marker-1,firing marker-2"
journalctl --sync
warnings=$(journalctl --no-pager -o cat -t sensorwatch -p warning | grep -c 'look-alike alert entr' || true)
[ "$warnings" = 1 ] || fail "$warnings look-alike warnings, not 1: $(journalctl --no-pager -o cat -t sensorwatch -p warning)"
journalctl --no-pager -o cat -t sensorwatch -p warning | grep -q 'skipped 1 look-alike alert entry .*_UID=65534' \
    || fail "the warning does not say what was skipped: $(journalctl --no-pager -o cat -t sensorwatch -p warning)"

# history lists the real events only, and says it left some out.
"$BIN" history >"$WORK/history.txt" 2>"$WORK/history.err"
[ "$(tr -s ' ' <"$WORK/history.txt" | cut -d' ' -f4,5 | paste -sd,)" = "cpu-hot firing,marker-1 firing,marker-2 firing" ] \
    || fail "history lists forgeries: $(cat "$WORK/history.txt")"
grep -q 'left out 4 look-alike alert entries the daemon did not write' "$WORK/history.err" \
    || fail "history does not say it left out the forgeries: $(cat "$WORK/history.err")"
"$BIN" history --json 2>/dev/null >"$WORK/history.jsonl"
[ "$(jq -r '.rule + " " + .event' "$WORK/history.jsonl" | paste -sd,)" = "cpu-hot firing,marker-1 firing,marker-2 firing" ] \
    || fail "history --json lists forgeries: $(cat "$WORK/history.jsonl")"
[ "$("$BIN" history --rule disk-full --json 2>/dev/null | grep -c . || true)" = 0 ] \
    || fail "history --rule lists a forged rule"

# The trust list replaces the defaults: trusting only nobody, root's events are the look-alikes.
cat >"$WORK/nobody.json5" <<JSON
{ trust: { units: [], uids: [65534] } }
JSON
"$BIN" check --config "$WORK/nobody.json5" >/dev/null || fail "check refuses the trust key"
[ "$("$BIN" history --config "$WORK/nobody.json5" --json 2>/dev/null | jq -r .rule | sort -u | paste -sd,)" = "cpu-hot,disk-full" ] \
    || fail "history --config with a trust list: $("$BIN" history --config "$WORK/nobody.json5" --json 2>&1)"

# A collector (--directory): remote-web1.journal is web1's file; an entry in it that says
# _HOSTNAME=db2, with root's trusted fields, is db2's name used by web1: not delivered.
stop_notify
mkdir -p "$WORK/fleet"
cat >"$WORK/page-host.sh" <<SH
#!/bin/sh
echo "\$ALERT_HOST \$ALERT_RULE" >>$WORK/out/fleet-calls
SH
chmod +x "$WORK/page-host.sh"
cat >"$WORK/fleet.json5" <<JSON
{ notify: [ { exec: ["$WORK/page-host.sh"] } ] }
JSON
MONO=0
# Appends one firing entry of host $1, rule $2, as journal-upload would send it, to $3.
remote_entry() {
    MONO=$((MONO + 1))
    printf '%s\n' "__REALTIME_TIMESTAMP=$(date +%s%6N)" "__MONOTONIC_TIMESTAMP=$MONO" \
        "_BOOT_ID=0123456789abcdef0123456789abcdef" "_HOSTNAME=$1" "_UID=0" "_SYSTEMD_UNIT=sensorwatch.service" \
        "SYSLOG_IDENTIFIER=sensorwatch" "MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769" "MESSAGE=$2 firing" \
        "ALERT_RULE=$2" "ALERT_STATE=firing" "ALERT_SEVERITY=critical" "SENSOR_ID=sim:cpu" "" >"$WORK/entry.export"
    "$REMOTE" --output="$WORK/fleet/$3" "$WORK/entry.export" 2>>"$WORK/remote.log" || fail "journal-remote exited with $?"
}
remote_entry web1 before-start remote-web1.journal
"$BIN" notify --config "$WORK/fleet.json5" --directory "$WORK/fleet" --state "$WORK/state/fleet.json" \
    2>"$WORK/notify.stderr" &
NOTIFY_PID=$!
wait_for "fleet.json" 100 test -s "$WORK/state/fleet.json"
remote_entry db2 db2-in-web1s-file remote-web1.journal
remote_entry web1 web1-own remote-web1.journal
remote_entry db2 db2-own remote-db2.journal
fleet_called() { [ -e "$WORK/out/fleet-calls" ] && [ "$(grep -c . "$WORK/out/fleet-calls")" -ge 2 ]; }
# The forged entry comes first in web1's file (and in time): once the later two are
# delivered, it has been read.
wait_for "web1's and db2's own alerts" 150 fleet_called
[ "$(sort "$WORK/out/fleet-calls" | paste -sd,)" = "db2 db2-own,web1 web1-own" ] \
    || fail "deliveries from the collector: $(paste -sd, "$WORK/out/fleet-calls")"
[ "$("$BIN" history --directory "$WORK/fleet" --json 2>/dev/null | jq -r .rule | sort | paste -sd,)" \
    = "before-start,db2-own,web1-own" ] || fail "history --directory: $("$BIN" history --directory "$WORK/fleet" 2>&1)"
note "notify trust: forged alerts page nobody, resolve nothing, are not history; a host's file holds only its alerts"
