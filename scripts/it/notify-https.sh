#!/usr/bin/env bash
# `sensorwatch notify` with an alertmanager target over https (SPEC §17), against a TLS
# server on 127.0.0.1 whose certificate the system's CA bundle trusts (bind-mounted over
# /etc/ssl/certs/ca-certificates.crt in the test's mount namespace, as an administrator's
# own CA would be installed): the POST arrives with the alert; a server whose certificate
# nobody vouches for is not trusted: the event is retried, with libcurl's reason logged.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
need python3 python3
need openssl openssl
trap notify_test_exit EXIT
on_fail() { echo "--- notify stderr"; cat "$WORK/notify.stderr" 2>/dev/null; journalctl --no-pager -o cat -t sensorwatch | tail -5; }

start_journald
mkdir -p "$WORK/state" "$WORK/tls"
# A CA, and a server certificate for 127.0.0.1 it signed; a second, self-signed one.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=sensorwatch test CA" \
    -keyout "$WORK/tls/ca.key" -out "$WORK/tls/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$WORK/tls/server.key" -out "$WORK/tls/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' >"$WORK/tls/san.ext"
openssl x509 -req -in "$WORK/tls/server.csr" -CA "$WORK/tls/ca.crt" -CAkey "$WORK/tls/ca.key" \
    -CAcreateserial -days 2 -extfile "$WORK/tls/san.ext" -out "$WORK/tls/server.crt" 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
    -keyout "$WORK/tls/rogue.key" -out "$WORK/tls/rogue.crt" 2>/dev/null
cat /etc/ssl/certs/ca-certificates.crt "$WORK/tls/ca.crt" >"$WORK/tls/bundle.crt"
mount --bind "$WORK/tls/bundle.crt" /etc/ssl/certs/ca-certificates.crt

# Alertmanager's API as far as notify uses it: each POST's path and body, one a line.
cat >"$WORK/am.py" <<'PY'
import http.server, ssl, sys
port, cert, key, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with open(out, "ab") as f: f.write(self.path.encode() + b" " + body.replace(b"\n", b" ") + b"\n")
        self.send_response(200); self.end_headers()
    def log_message(self, *a): pass
server = http.server.HTTPServer(("127.0.0.1", port), H)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
PY
python3 "$WORK/am.py" 19443 "$WORK/tls/server.crt" "$WORK/tls/server.key" "$WORK/good.jsonl" &
HELPER_PIDS+=($!)
python3 "$WORK/am.py" 19444 "$WORK/tls/rogue.crt" "$WORK/tls/rogue.key" "$WORK/rogue.jsonl" &
HELPER_PIDS+=($!)
wait_for "the TLS server" 50 listening 19443
wait_for "the second TLS server" 50 listening 19444

cat >"$WORK/sensorwatch.json5" <<JSON
{ notify: [
  { alertmanager: "https://127.0.0.1:19443", rule: "cpu-*" },
  { alertmanager: "https://127.0.0.1:19444", rule: "disk-*" },
] }
JSON
"$BIN" notify --config "$WORK/sensorwatch.json5" --state "$WORK/state/notify.json" 2>>"$WORK/notify.stderr" &
NOTIFY_PID=$!
wait_for "notify.json" 100 test -s "$WORK/state/notify.json"

alert_event firing cpu-hot critical
posted() { [ -s "$WORK/good.jsonl" ]; }
wait_for "the POST over https" 100 posted
line=$(head -1 "$WORK/good.jsonl")
[ "${line%% *}" = /api/v2/alerts ] || fail "path: $line"
jq -e '.[0].labels | .alertname == "cpu-hot" and .sensor == "sim:cpu" and .severity == "critical"' <<<"${line#* }" >/dev/null \
    || fail "the alert over https: $line"

alert_event firing disk-hot warning
retried() {
    journalctl --sync
    journalctl --no-pager -o cat -t sensorwatch -p warning | grep -q 'disk-hot firing .* not delivered (.*certificate.*); trying again'
}
wait_for "the untrusted server's retry entry" 100 retried
[ ! -s "$WORK/rogue.jsonl" ] || fail "an untrusted server got the alert: $(cat "$WORK/rogue.jsonl")"
note "$(journalctl --no-pager -o cat -t sensorwatch -p warning | grep -m1 'disk-hot firing .* not delivered')"
note "notify https: ok"
