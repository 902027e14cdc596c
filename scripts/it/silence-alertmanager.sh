#!/usr/bin/env bash
# Silences with an alertmanager target against a real prometheus-alertmanager (SPEC §21):
# `silence add` makes notify create the silence there (POST /api/v2/silences: the globs as
# regular expressions, createdBy, comment, startsAt, endsAt): GET /api/v2/silences shows it
# active and GET /api/v2/alerts the matching alert `suppressed`, while the alert is still sent
# as usual; `silence expire` expires it there (DELETE) and the alert is `active` again. A
# notify restarted between the two still expires it (the ids kept in notify.json).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
need curl curl
need prometheus-alertmanager prometheus-alertmanager
AM_PID=
stop_am() {
    if [ -n "${AM_PID:-}" ]; then kill "$AM_PID" 2>/dev/null || true; wait "$AM_PID" 2>/dev/null || true; AM_PID=; fi
}
trap 'stop_notify; stop_am; stop_journald' EXIT
on_fail() { echo "--- notify stderr"; cat "$WORK/notify.stderr" 2>/dev/null; echo "--- alertmanager"; tail -5 "$WORK/am.log"; }

start_journald
mkdir -p "$WORK/state" "$WORK/am"
AM=127.0.0.1:19401
start_silent_alertmanager "$AM"
wait_for "alertmanager" 150 curl -fs "http://$AM/-/ready" -o /dev/null

cat >"$WORK/sensorwatch.json5" <<JSON
{ notify: [ { alertmanager: "http://$AM", timeout: "5s" } ] }
JSON
start_notify() {
    "$BIN" notify --config "$WORK/sensorwatch.json5" --state "$WORK/state/notify.json" 2>>"$WORK/notify.stderr" &
    NOTIFY_PID=$!
    wait_for "notify.json" 100 test -s "$WORK/state/notify.json"
}
start_notify

# Two alerts fire; Alertmanager has both, active.
alert_event firing fan-stopped critical sim:fan
alert_event firing cpu-hot warning sim:cpu
alert_state() { # RULE → active, suppressed or nothing
    curl -fs "http://$AM/api/v2/alerts" | jq -r --arg r "$1" '.[] | select(.labels.alertname == $r) | .status.state'
}
state_is() { [ "$(alert_state "$1")" = "$2" ]; }
wait_for "fan-stopped in Alertmanager" 100 state_is fan-stopped active
wait_for "cpu-hot in Alertmanager" 100 state_is cpu-hot active

# The silence: created there, active, with our matchers, who and why; fan-stopped suppressed.
id=$("$BIN" silence add --rule 'fan-*' --sensor 'sim:f?n' --for 2h --comment "fan swap" 2>/dev/null)
ours() { curl -fs "http://$AM/api/v2/silences" | jq -c '[.[] | select(.comment == "fan swap")]'; }
made() { [ "$(ours | jq length)" = 1 ]; }
wait_for "the silence in Alertmanager" 100 made
silence=$(ours | jq -c '.[0]')
jq -e '.status.state == "active" and .createdBy == "root"
       and (.matchers | map({(.name): [.value, .isRegex]}) | add) == {"alertname": ["fan-.*", true], "sensor": ["sim:f.n", true]}' \
    <<<"$silence" >/dev/null || fail "the silence in Alertmanager: $silence"
ends=$(journal_json SILENCE_ID="$id" | jq -r .SILENCE_ENDS)
[ "$(date -d "$(jq -r .endsAt <<<"$silence")" +%s)" = "$(date -d "$ends" +%s)" ] || fail "endsAt $(jq -r .endsAt <<<"$silence") is not $ends"
wait_for "fan-stopped suppressed" 100 state_is fan-stopped suppressed
state_is cpu-hot active || fail "cpu-hot: $(alert_state cpu-hot)"

# Alerts are still sent as usual: a repeat reaches Alertmanager (still suppressed there).
alert_event firing fan-slow warning sim:fan
wait_for "fan-slow in Alertmanager, suppressed" 100 state_is fan-slow suppressed
jq -e --arg id "$id" '[.targets[].silences // {} | has($id)] | any' "$WORK/state/notify.json" >/dev/null \
    || fail "notify.json does not keep the silence's id: $(cat "$WORK/state/notify.json")"

# A restart in between; then the expiry expires it there, and the alert is active again.
stop_notify
start_notify
"$BIN" silence expire "$id" >/dev/null
expired() { [ "$(ours | jq -r '.[0].status.state')" = expired ]; }
wait_for "the silence expired in Alertmanager" 100 expired
wait_for "fan-stopped active again" 100 state_is fan-stopped active
echo "ok: the silence created, suppressing, and expired in Alertmanager"
