#!/usr/bin/env bash
# `sensorwatch notify` with an alertmanager target against a real prometheus-alertmanager on
# 127.0.0.1 and a private journald (SPEC §17): a firing event is an active alert with the
# labels and annotations of §17 (read back through the API), grouped by the route into one
# webhook notification, silenced with amtool; the firing set survives kill -9 in notify.json;
# an Alertmanager that is down is retried; a resolved event resolves it; a rule's
# annotations (SPEC §21) are the alert's summary, description and runbook_url.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
need curl curl
need python3 python3
need prometheus-alertmanager prometheus-alertmanager
need amtool prometheus-alertmanager
AM_PID=
HOOK_PID=
stop_am() {
    if [ -n "${AM_PID:-}" ]; then kill "$AM_PID" 2>/dev/null || true; wait "$AM_PID" 2>/dev/null || true; AM_PID=; fi
}
on_exit() {
    stop_notify
    stop_am
    if [ -n "${HOOK_PID:-}" ]; then kill "$HOOK_PID" 2>/dev/null || true; wait "$HOOK_PID" 2>/dev/null || true; fi
    stop_journald
}
trap on_exit EXIT
on_fail() { echo "--- notify stderr"; cat "$WORK/notify.stderr" 2>/dev/null; echo "--- alertmanager"; tail -5 "$WORK/am.log"; }

start_journald
mkdir -p "$WORK/state" "$WORK/am"
# Ports: AM_PORT and HOOK_PORT where several runs share the machine.
AM=127.0.0.1:${AM_PORT:-19093}
HOOK=127.0.0.1:${HOOK_PORT:-19095}
AMTOOL=(amtool --alertmanager.url="http://$AM")

# A webhook receiver: appends each notification Alertmanager sends (one JSON a line).
cat >"$WORK/hook.py" <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with open(sys.argv[2], "ab") as f: f.write(body.replace(b"\n", b" ") + b"\n")
        self.send_response(200); self.end_headers()
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
python3 "$WORK/hook.py" "${HOOK#*:}" "$WORK/hook.jsonl" &
HOOK_PID=$!

# The route of docs/notifications.md: grouped by rule and host, to the webhook.
cat >"$WORK/alertmanager.yml" <<YML
route:
  receiver: hook
  group_by: [alertname, host]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: http://$HOOK/
YML
start_am() {
    prometheus-alertmanager --config.file="$WORK/alertmanager.yml" --storage.path="$WORK/am" \
        --web.listen-address="$AM" --cluster.listen-address= >>"$WORK/am.log" 2>&1 &
    AM_PID=$!
    wait_for "alertmanager" 150 curl -fs "http://$AM/-/ready" -o /dev/null
}
start_am

cat >"$WORK/sensorwatch.json5" <<JSON
{ notify: [ { alertmanager: "http://$AM", rule: "cpu-*", timeout: "5s" } ] }
JSON
"$BIN" check --config "$WORK/sensorwatch.json5" >/dev/null || fail "check refuses the alertmanager target"
start_notify() {
    "$BIN" notify --config "$WORK/sensorwatch.json5" --state "$WORK/state/notify.json" 2>>"$WORK/notify.stderr" &
    NOTIFY_PID=$!
    wait_for "notify.json" 100 test -s "$WORK/state/notify.json"
}
alerts() { curl -fs "http://$AM/api/v2/alerts?active=true&silenced=true&inhibited=true&unprocessed=true"; }
active_count() { alerts | jq "[.[] | select(.labels.alertname == \"$1\")] | length"; }
has_alerts() { [ "$(active_count "$1")" = "$2" ]; }

start_notify
host=$(hostname)
alert_event firing cpu-hot warning sim:cpu
alert_event firing cpu-hot warning sim:gpu
alert_event firing disk-full critical          # not taken: the filter is rule "cpu-*"
wait_for "two active alerts" 100 has_alerts cpu-hot 2
a=$(alerts | jq -c '[.[] | select(.labels.sensor == "sim:cpu")][0]')
[ "$(jq -r '[.labels.alertname,.labels.sensor,.labels.severity,.labels.host] | join(",")' <<<"$a")" \
    = "cpu-hot,sim:cpu,warning,$host" ] || fail "labels: $a"
[ "$(jq -r '[.annotations.summary,.annotations.value,.annotations.threshold] | join(",")' <<<"$a")" \
    = "cpu-hot firing: sim:cpu (CPU package) 85 °C above 80 °C,85,80" ] || fail "annotations: $a"
[ "$(jq -r .status.state <<<"$a")" = active ] || fail "state: $a"
ends=$(date -d "$(jq -r .endsAt <<<"$a")" +%s)
now=$(date +%s)
[ $((ends - now)) -gt 200 ] && [ $((ends - now)) -le 241 ] || fail "endsAt is not 4 minutes ahead: $(jq -r .endsAt <<<"$a")"
[ "$(active_count disk-full)" = 0 ] || fail "the filter let disk-full through"

# The route groups both sensors into one notification to the webhook.
wait_for "the webhook notification" 100 test -s "$WORK/hook.jsonl"
[ "$(head -1 "$WORK/hook.jsonl" | jq '.alerts | length')" = 2 ] \
    || fail "not grouped: $(head -1 "$WORK/hook.jsonl")"
[ "$(head -1 "$WORK/hook.jsonl" | jq -r '.groupLabels | "\(.alertname),\(.host)"')" = "cpu-hot,$host" ] \
    || fail "group labels: $(head -1 "$WORK/hook.jsonl")"

# A silence with amtool: the alerts are suppressed.
"${AMTOOL[@]}" silence add alertname=cpu-hot --comment="maintenance" --duration=1h --author=it >/dev/null
silenced() { [ "$(alerts | jq '[.[] | select(.status.state == "suppressed")] | length')" = 2 ]; }
wait_for "the silence" 50 silenced
listed=$("${AMTOOL[@]}" alert query alertname=cpu-hot --silenced -o simple)
[ "$(grep -c 'cpu-hot .* suppressed' <<<"$listed")" = 2 ] || fail "amtool does not list the silenced alerts: $listed"

# The firing set is in notify.json and survives kill -9.
jq -e '[.targets[].firing[]?] | length == 2' "$WORK/state/notify.json" >/dev/null \
    || fail "firing set not kept: $(cat "$WORK/state/notify.json")"
kill -KILL "$NOTIFY_PID"; wait "$NOTIFY_PID" 2>/dev/null || true; NOTIFY_PID=

# An Alertmanager that is down: the resolved event waits and is retried until it is back.
stop_am
alert_event resolved cpu-hot warning sim:cpu
start_notify
retried() { journalctl --sync; journalctl --no-pager -o cat -t sensorwatch -p warning | grep -c 'cpu-hot resolved .* not delivered .*trying again' >/dev/null; }
wait_for "the retry entry" 100 retried
start_am
# Alertmanager keeps no alerts across its restart: sim:gpu comes back with the minute's
# re-send; the retried resolved event is what must arrive now.
kept_one() { jq -e '[.targets[].firing[]?] | length == 1 and .[0].sensor == "sim:gpu"' "$WORK/state/notify.json" >/dev/null; }
wait_for "the retried resolve" 150 kept_one
[ "$(alerts | jq '[.[] | select(.labels.sensor == "sim:cpu" and .status.state != "resolved")] | length')" = 0 ] \
    || fail "sim:cpu still active after its resolve: $(alerts)"
# Active while it fires, gone from the active alerts once resolved.
fan_active() { [ "$(alerts | jq '[.[] | select(.labels.sensor == "sim:fan" and .status.state != "resolved")] | length')" = "$1" ]; }
alert_event firing cpu-hot warning sim:fan
wait_for "sim:fan active" 100 fan_active 1
alert_event resolved cpu-hot warning sim:fan
wait_for "sim:fan gone" 100 fan_active 0

# Annotations (SPEC §21): the rule's summary replaces the message, description and
# runbook_url are added; value and threshold stay.
logger --journald <<ENTRY
MESSAGE=cpu-annotated firing: sim:cpu (CPU package) 85 °C above 80 °C
PRIORITY=4
SYSLOG_IDENTIFIER=sensorwatch
MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769
ALERT_RULE=cpu-annotated
ALERT_STATE=firing
ALERT_SEVERITY=warning
ALERT_THRESHOLD=80
ALERT_SUMMARY=CPU too hot
ALERT_DESCRIPTION=Clean the fan
ALERT_RUNBOOK=https://wiki.example/runbooks/cpu#hot
SENSOR_ID=sim:cpu
SENSOR_QUANTITY=temperature
SENSOR_VALUE=85
SENSOR_UNIT=°C
ENTRY
wait_for "the annotated alert" 100 has_alerts cpu-annotated 1
a=$(alerts | jq -c '[.[] | select(.labels.alertname == "cpu-annotated")][0]')
[ "$(jq -c .annotations <<<"$a")" \
    = '{"description":"Clean the fan","runbook_url":"https://wiki.example/runbooks/cpu#hot","summary":"CPU too hot","threshold":"80","value":"85"}' ] \
    || fail "annotations of an annotated rule: $a"

# --test: both events delivered.
"$BIN" notify --config "$WORK/sensorwatch.json5" --test >"$WORK/test.out" || fail "--test: $(cat "$WORK/test.out")"
[ "$(cat "$WORK/test.out")" = "alertmanager http://$AM: firing delivered
alertmanager http://$AM: resolved delivered" ] || fail "--test output: $(cat "$WORK/test.out")"

start=$(date +%s%N)
kill -TERM "$NOTIFY_PID"
wait "$NOTIFY_PID" || fail "notify exited with $? on SIGTERM"
NOTIFY_PID=
[ $(( ($(date +%s%N) - start) / 1000000 )) -lt 1000 ] || fail "SIGTERM took more than a second"
note "notify alertmanager: ok"
