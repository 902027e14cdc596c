#!/usr/bin/env bash
# sensorwatch.service under a systemd user manager: active only after READY=1, STATUS= shown,
# an alert wakes notify's socket from inside the sandbox, reload keeps the process (a bad
# configuration is logged at err and the old one kept), stop takes less than 1 s and exits 0;
# the unit's GLIBC_TUNABLES reaches the daemon.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_unit_test
write_scenario "$WORK/scenario.json5" "[[0, 50], [1, 85], [2, 86], [30, 86]]"
write_config "$WORK/sensorwatch.json5" "scenario.json5"
# The metrics file where the unit's RuntimeDirectory= puts it (in user mode under
# $XDG_RUNTIME_DIR), written under the unit's UMask=0077 and system call filter.
PROM=$XDG_RUNTIME_DIR/sensorwatch/sensorwatch.prom
sed -i "s|^}|  metrics: { textfile: \"$PROM\", interval: \"1s\" },\n}|" "$WORK/sensorwatch.json5"
test_dropin </dev/null
# Where sensorwatch-notify listens for the daemon's wake (SPEC §17): a stand-in counts the
# datagrams, sent from inside the unit's sandbox (PrivateNetwork=, ProtectSystem=strict).
mkdir -p /run/sensorwatch-notify
python3 - "$WORK/wakes" <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("/run/sensorwatch-notify/wake")
os.chmod("/run/sensorwatch-notify/wake", 0o666)
n = 0
while True:
    s.recv(16)
    n += 1
    with open(sys.argv[1], "w") as f:
        f.write(f"{n}\n")
PY
WAKE_PID=$!
trap 'kill "$WAKE_PID" 2>/dev/null || true; stop_user_manager; stop_journald' EXIT
woken() { [ -s "$WORK/wakes" ] && [ "$(cat "$WORK/wakes")" -ge 1 ]; }

[ "$(unit_prop Type)" = notify ] || fail "Type is $(unit_prop Type)"
# With Type=notify, start returns only once the service sent READY=1.
systemctl --user start sensorwatch.service || fail "start failed"
[ "$(unit_prop ActiveState)" = active ] || fail "not active after start"
pid=$(unit_prop MainPID)
# The unit's malloc setting (glibc reads it from the environment only) reaches the daemon.
tr '\0' '\n' <"/proc/$pid/environ" | grep -qx 'GLIBC_TUNABLES=glibc.malloc.tcache_count=0' \
    || fail "the daemon's environment has no GLIBC_TUNABLES=glibc.malloc.tcache_count=0"
status=$(unit_prop StatusText)
note "STATUS=$status"
grep -q 'sensor' <<<"$status" || fail "STATUS does not mention sensors: '$status'"
wait_for "the firing entry" 100 has_state firing
wait_for "the daemon's wake for notify" 50 woken
wait_for "STATUS to show the firing alert" 50 status_has '1 firing'

# The metrics file: 0644 in the 0755 runtime directory, the alert in it; the temporary
# name keeps the file replaced last, and the next file is that one (reused: exchange and
# lease allowed by the filter).
wait_for "the metrics file" 50 grep -q 'sensorwatch_alert_firing{rule="cpu-hot",sensor="sim:cpu",severity="critical"} 1' "$PROM"
[ "$(stat -c %a "$PROM")" = 644 ] || fail "metrics file mode $(stat -c %a "$PROM")"
[ "$(stat -c %a "${PROM%/*}")" = 755 ] || fail "runtime directory mode $(stat -c %a "${PROM%/*}")"
wait_for "the temporary name" 50 test -e "${PROM%/*}/.sensorwatch.prom.tmp"
spare=$(stat -c %i "${PROM%/*}/.sensorwatch.prom.tmp")
wait_for "the next metrics file" 30 eval '[ "$(stat -c %i "$PROM")" = "$spare" ]'

# The status file (SPEC §19): status.json in $RUNTIME_DIRECTORY, 0644, the firing alert in
# it; `status --check` reads it as a monitoring system would (cpu-hot is critical: exit 2).
STATUS_FILE=${PROM%/*}/status.json
wait_for "the status file" 50 grep -q '"rule":"cpu-hot","sensor":"sim:cpu","severity":"critical","state":"firing"' "$STATUS_FILE"
[ "$(stat -c %a "$STATUS_FILE")" = 644 ] || fail "status file mode $(stat -c %a "$STATUS_FILE")"
set +e
check=$("$BIN" status --check --file "$STATUS_FILE")
code=$?
set -e
note "status --check: $check (exit $code)"
[ "$code" = 2 ] || fail "status --check exited $code: $check"

# A good reload: same process, still active.
systemctl --user reload sensorwatch.service || fail "reload failed"
wait_for "READY after reload" 50 prop_is ActiveState active
[ "$(unit_prop MainPID)" = "$pid" ] || fail "reload replaced the process"

# A bad configuration: logged at err with its MESSAGE_ID, the old one keeps running.
echo '{ rules: [ { name: "x", above: "not a number" } ] }' >"$WORK/sensorwatch.json5"
systemctl --user reload sensorwatch.service || fail "reload with a bad config failed"
wait_for "the reload error in the journal" 50 \
    journal_has MESSAGE_ID=3fce295f7da14aec83c51a0fba31a6be PRIORITY=3
# Two metrics files written after it: the samples after the reload were seen by the rules.
wait_for_rewrite "$PROM" 2
[ "$(unit_prop ActiveState)" = active ] || fail "a bad reload stopped the service"
[ "$(unit_prop MainPID)" = "$pid" ] || fail "a bad reload replaced the process"
[ "$(count_state resolved)" = 0 ] || fail "the bad reload resolved the firing alert"
[ "$(count_state firing)" = 1 ] || fail "the reload logged the alert as firing again"

# The hardened unit refuses libdispatch higher thread priorities; that must not spam.
if journalctl --no-pager -o cat -t sensorwatch 2>/dev/null | grep -q "Failed to set thread priority"; then
    fail "libdispatch priority warnings reached the journal"
fi

# Stop: STOPPING=1 and exit 0 within 1 s.
start=$(date +%s%N)
systemctl --user stop sensorwatch.service
ms=$(( ($(date +%s%N) - start) / 1000000 ))
note "stop took $ms ms"
[ "$ms" -lt 1000 ] || fail "stop took $ms ms"
[ "$(unit_prop Result)" = success ] || fail "Result=$(unit_prop Result)"
[ "$(unit_prop ExecMainStatus)" = 0 ] || fail "exit status $(unit_prop ExecMainStatus)"
[ ! -e "${PROM%/*}" ] || fail "the runtime directory (and metrics file) outlived the stop: $(ls -A "${PROM%/*}")"
note "ready, status, metrics file, status file, reload, bad reload and stop behave"
