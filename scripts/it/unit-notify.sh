#!/usr/bin/env bash
# sensorwatch-notify.service under a systemd user manager: active only after READY=1, its
# StateDirectory= holds notify.json, an alert event reaches the exec target, reload (SIGHUP)
# keeps the process, stop takes less than 1 s and exits 0.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_unit_test
need logger bsdutils
mkdir -p "$USER_UNITS/sensorwatch-notify.service.d" "$WORK/out"
cp "$ROOT/systemd/sensorwatch-notify.service" "$USER_UNITS/"
cp "$ROOT/systemd/test/user-mode.conf" "$USER_UNITS/sensorwatch-notify.service.d/"
cat >"$WORK/page.sh" <<SH
#!/bin/sh
echo "\$ALERT_STATE \$ALERT_RULE" >>$WORK/out/events
SH
chmod +x "$WORK/page.sh"
printf '{ notify: [ { exec: ["%s"] } ] }\n' "$WORK/page.sh" >"$WORK/sensorwatch.json5"
# The program writes under ProtectSystem=strict only where the administrator allows it.
printf '[Service]\nExecStart=\nExecStart=%s notify --config %s\nReadWritePaths=%s\n' \
    "$BIN" "$WORK/sensorwatch.json5" "$WORK/out" >"$USER_UNITS/sensorwatch-notify.service.d/test.conf"
systemctl --user daemon-reload
prop() { systemctl --user show -P "$1" sensorwatch-notify.service; }
on_fail() { systemctl --user status sensorwatch-notify.service --no-pager || true; journalctl --no-pager -o cat | tail -20; }

[ "$(prop Type)" = notify ] || fail "Type is $(prop Type)"
systemctl --user start sensorwatch-notify.service || fail "start failed"
[ "$(prop ActiveState)" = active ] || fail "not active after start"
pid=$(prop MainPID)
note "STATUS=$(prop StatusText)"
state=$(find "$HOME" -name notify.json -path '*sensorwatch-notify*' | head -1)
[ -n "$state" ] || fail "no notify.json in the unit's StateDirectory"
note "state: ${state#$HOME/}"

alert_event firing cpu-hot critical
wait_for "the delivery" 100 test -s "$WORK/out/events"
[ "$(cat "$WORK/out/events")" = "firing cpu-hot" ] || fail "delivered: $(cat "$WORK/out/events")"

systemctl --user reload sensorwatch-notify.service || fail "reload failed"
wait_for "READY after the reload" 50 sh -c '[ "$(systemctl --user show -P ActiveState sensorwatch-notify.service)" = active ]'
[ "$(prop MainPID)" = "$pid" ] || fail "reload replaced the process"

start=$(date +%s%N)
systemctl --user stop sensorwatch-notify.service
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 1000 ] || fail "stop took ${ms} ms"
[ "$(prop Result)" = success ] || fail "Result is $(prop Result)"
note "unit-notify: ok (stop ${ms} ms)"
