#!/usr/bin/env bash
# An alertmanager target's URL with user information (SPEC §17 Secrets) against a real
# prometheus-alertmanager that requires basic authentication (--web.config.file with a
# bcrypt user) and a private journald: the alert arrives (read back with the credentials),
# a wrong password is refused (401, logged as failed with the URL masked), and the password
# appears nowhere in the journal (every field, `journalctl -o export`), notify's stdout and
# stderr, `--test` and `check` output, or notify.json (also one written before the masking).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
need curl curl
need htpasswd apache2-utils
need prometheus-alertmanager prometheus-alertmanager
trap notify_test_exit EXIT
on_fail() { echo "--- notify stderr"; cat "$WORK"/notify*.std* 2>/dev/null; echo "--- alertmanager"; tail -5 "$WORK/am.log"; }

start_journald
mkdir -p "$WORK/state" "$WORK/am"
AM=127.0.0.1:19300
USER=pager
# Characters a URL must escape (@, :, /) and a bcrypt-safe rest; a long unusual token that
# cannot appear by chance in any output.
SECRET='Zq7#unlikely@secret:/x9'
ESCAPED='Zq7%23unlikely%40secret%3A%2Fx9'
WRONG=wrong-password-Kd81

hash=$(htpasswd -nbBC 5 "$USER" "$SECRET" | cut -d: -f2-)
cat >"$WORK/web.yml" <<YML
basic_auth_users:
  $USER: '$hash'
YML
start_silent_alertmanager "$AM" --web.config.file="$WORK/web.yml"
HELPER_PIDS+=("$AM_PID")
wait_for "alertmanager" 150 curl -fs -u "$USER:$SECRET" "http://$AM/-/ready" -o /dev/null
# The server does require the credentials.
code=$(curl -s -o /dev/null -w '%{http_code}' "http://$AM/api/v2/alerts")
[ "$code" = 401 ] || fail "alertmanager without credentials answered $code, not 401"

good="http://$USER:$ESCAPED@$AM"
bad="http://$USER:$WRONG@$AM"
shown="http://$USER:***@$AM"
# notify.json as a version before the masking wrote it: the target keyed with its password.
cat >"$WORK/state/notify.json" <<JSON
{"version": 1, "targets": {"alertmanager $good rule=cpu-*": {"cursors": {}}}}
JSON
cat >"$WORK/sensorwatch.json5" <<JSON
{ notify: [ { alertmanager: "$good", rule: "cpu-*", timeout: "5s" },
            { alertmanager: "$bad", rule: "disk-*", timeout: "5s" } ] }
JSON
"$BIN" check --config "$WORK/sensorwatch.json5" >"$WORK/check.out" 2>&1 || fail "check: $(cat "$WORK/check.out")"

"$BIN" notify --config "$WORK/sensorwatch.json5" --state "$WORK/state/notify.json" \
    >"$WORK/notify.stdout" 2>"$WORK/notify.stderr" &
NOTIFY_PID=$!
rewritten() { ! grep -q "$ESCAPED" "$WORK/state/notify.json"; }
wait_for "notify.json rewritten at the start" 100 rewritten

alerts() { curl -fs -u "$USER:$SECRET" "http://$AM/api/v2/alerts?active=true&silenced=true&inhibited=true&unprocessed=true"; }
has_alert() { [ "$(alerts | jq "[.[] | select(.labels.alertname == \"$1\")] | length")" = 1 ]; }
alert_event firing cpu-hot warning
wait_for "the alert in alertmanager (sent with the credentials)" 100 has_alert cpu-hot

# The wrong password: 401, a failure (not retried), logged with the URL masked.
alert_event firing disk-full critical
refused() {
    journalctl --sync
    journalctl --no-pager -o cat -p err | grep -F "alertmanager $shown: disk-full firing" | grep -q 'HTTP 401'
}
wait_for "the refused delivery in the journal" 100 refused
[ "$(alerts | jq '[.[] | select(.labels.alertname == "disk-full")] | length')" = 0 ] \
    || fail "the wrong password delivered"
grep -qF "alertmanager $shown" <(jq -r '.targets | keys[]' "$WORK/state/notify.json") \
    || fail "notify.json has no masked key: $(cat "$WORK/state/notify.json")"
kill -TERM "$NOTIFY_PID"
wait "$NOTIFY_PID" || fail "notify exited with $? on SIGTERM"
NOTIFY_PID=

# --test: the good target delivers, the bad one is refused; both named masked.
rc=0
"$BIN" notify --config "$WORK/sensorwatch.json5" --test >"$WORK/test.stdout" 2>"$WORK/test.stderr" || rc=$?
[ "$rc" = 1 ] || fail "--test exited $rc (one target refused: 1)"
grep -qxF "alertmanager $shown: firing delivered" "$WORK/test.stdout" || fail "--test: $(cat "$WORK/test.stdout")"
grep -qF "alertmanager $shown: firing not delivered: HTTP 401" "$WORK/test.stdout" \
    || fail "--test: $(cat "$WORK/test.stdout")"

# Nowhere: neither form of either password, nor the decoded one.
journalctl --sync
journalctl --no-pager -o export >"$WORK/journal.export"
grep -q 'sensorwatch' "$WORK/journal.export" || fail "the journal export holds no notify entry"
for file in journal.export notify.stdout notify.stderr test.stdout test.stderr check.out state/notify.json; do
    for secret in "$SECRET" "$ESCAPED" "$WRONG" "unlikely"; do
        if grep -aqF -- "$secret" "$WORK/$file"; then
            fail "$file shows a password ($secret): $(grep -aF -- "$secret" "$WORK/$file" | head -3)"
        fi
    done
done
note "notify basic auth: ok (delivered, refused with 401, no password shown)"
