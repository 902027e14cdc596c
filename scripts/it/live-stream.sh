#!/usr/bin/env bash
# The daemon's live stream (SPEC §22) on a written thermal tree and a ramp, in a mount
# namespace with /run on tmpfs: the socket (mode 0666) replaces a stale one; a python3
# client reads hello and a snapshot (values, limits, alarms, asleep, history), then a change
# of only the zone whose temp1 file changed and its alert firing and resolving; a subscriber
# gets only its glob; junk gets an error; of 65 clients the 65th gets an error; a zone
# directory moved in appears and moved out goes; a client that never reads (4 KiB buffer)
# leaves the ramp's samples at their pace; user nobody reads but changes nothing; SIGTERM
# with clients attached stops within a second and removes the socket; `liveSocket: false`
# has none.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
# The system's python3: nobody may run it (not so a python3 of root's own, such as pyenv's).
need /usr/bin/python3 python3
PY=/usr/bin/python3
need setpriv util-linux
need ss iproute2
setup_fault_test
cp "$(dirname "$0")/lib/live_client.py" "$WORK/live_client.py"
client() { "$PY" "$WORK/live_client.py" "$@"; }

T=$WORK/thermal
OUT=$WORK/outside
mkdir -p "$T" "$OUT"
zone "$T/thermal_zone0" x86_pkg_temp 50000
zone "$T/thermal_zone1" acpitz 40000
zone "$OUT/thermal_zone2" iwlwifi_1 45000
# 800 more, so a snapshot is more than a socket's buffers hold (about 300 KB).
"$PY" - "$T" <<'PY'
import os, sys
for i in range(10, 810):
    d = f"{sys.argv[1]}/thermal_zone{i}"
    os.mkdir(d)
    open(f"{d}/type", "w").write(f"bulk_{i}\n")
    open(f"{d}/temp", "w").write("30000\n")
PY
cat >"$WORK/ramp.json5" <<'J'
{ duration: "1h", step: "200ms", loop: false,
  sensors: [ { id: "ramp", quantity: "temperature", start: 20, segments: [ { ramp: 80, over: "1h" } ] } ] }
J
cat >"$WORK/live-stream.json5" <<J
{ sources: [ { type: "thermal", root: "$T", interval: "200ms" },
             { type: "simulated", scenario: "$WORK/ramp.json5", interval: "200ms" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" } ] }
J
SOCK=/run/sensorwatch/live.sock
# A socket file left by a crash: nobody listens on it.
mkdir -p /run/sensorwatch
"$PY" -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$SOCK"
[ -S "$SOCK" ] || fail "no stale socket made"

start_daemon "$WORK/live-stream.json5" "$WORK/stderr"
live() { "$PY" -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" "$SOCK" 2>/dev/null; }
wait_for "the live socket" 100 live
[ "$(stat -c %a "$SOCK")" = 666 ] || fail "live.sock has mode $(stat -c %a "$SOCK"), not 666"

client basic "$SOCK" "$T/thermal_zone0/temp" thermal:x86_pkg_temp || fail "hello, snapshot and a change"
note "hello, snapshot, a change of one zone, its alert firing and resolved"
client subscribe "$SOCK" 'sim:*' sim: || fail "a subscription"
note "a subscription to sim:* gets only sim:ramp"
out=$(client junk "$SOCK" 'hello daemon') || fail "junk"
note "junk: $out"
out=$(client many "$SOCK") || fail "65 clients"
note "65th: $out"
client hotplug "$SOCK" "$OUT/thermal_zone2" "$T/thermal_zone2" thermal:iwlwifi_1 || fail "appeared and gone"
note "a zone moved in appeared, moved out gone"

# A client that never reads while the daemon samples: the ramp keeps its pace for another.
"$PY" "$WORK/live_client.py" hold "$SOCK" "$WORK/hold.ready" &
hold=$!
helpers+=("$hold")
wait_for "the holding client" 50 test -f "$WORK/hold.ready"
# Its socket holds what the daemon could write and no more: the rest waits in the daemon.
held() { [ "$(ss -xnp | awk -v p="pid=$hold," 'index($0, p) && $3 > 100000 { print "full" }')" = full ]; }
wait_for "the holding client's full buffer" 50 held
out=$(client pace "$SOCK" sim:ramp 3 200) || fail "the samples lost their pace"
note "beside a client that never reads: $out"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$PY" "$WORK/live_client.py" readonly "$SOCK") \
    || fail "user nobody cannot read the stream, or was not refused"
note "nobody reads, and a request to silence gets: $out"

"$PY" "$WORK/live_client.py" attach "$SOCK" "$WORK/attach.ready" &
attached=$!
helpers+=("$attached")
wait_for "the attached client" 50 test -f "$WORK/attach.ready"
stop_within_1s "$pid" TERM
pid=
[ ! -e "$SOCK" ] || fail "live.sock left after a clean stop"
wait "$attached" || fail "the attached client did not see a clean end"
kill "$hold" 2>/dev/null || true

# liveSocket: false: no stream.
sed 's|rules:|liveSocket: false, statusFile: "'"$WORK"'/status.json", rules:|' "$WORK/live-stream.json5" >"$WORK/off.json5"
start_daemon "$WORK/off.json5" "$WORK/stderr.off"
wait_for "the status file" 100 test -f "$WORK/status.json"
[ ! -e "$SOCK" ] || fail "liveSocket: false still listens"
stop_within_1s "$pid" TERM
pid=
note "liveSocket: false has no socket"
