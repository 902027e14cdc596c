#!/usr/bin/env bash
# sensorwatch-notify.service has WatchdogSec= and notify feeds it while its event loop turns
# (SPEC §17 Liveness): under a systemd user manager, a notify that keeps running is not
# restarted, and one frozen with SIGSTOP (no loop turns, no ping) is killed by the watchdog
# and started again: a new MainPID, NRestarts ≥ 1, and the new process delivers.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_unit_test
need logger bsdutils
unit=$ROOT/systemd/sensorwatch-notify.service
grep -qE '^WatchdogSec=[1-9]' "$unit" || fail "the notify unit has no WatchdogSec="
mkdir -p "$USER_UNITS/sensorwatch-notify.service.d" "$WORK/out"
cp "$unit" "$USER_UNITS/"
cp "$ROOT/systemd/test/user-mode.conf" "$USER_UNITS/sensorwatch-notify.service.d/"
cat >"$WORK/page.sh" <<SH
#!/bin/sh
echo "\$ALERT_STATE \$ALERT_RULE" >>$WORK/out/events
SH
chmod +x "$WORK/page.sh"
printf '{ notify: [ { exec: ["%s"] } ] }\n' "$WORK/page.sh" >"$WORK/sensorwatch.json5"
# A short watchdog for the test; a frozen process cannot take SIGABRT, SIGKILL ends it. The
# restart waits long enough to read the failed run's result before the next start resets it.
cat >"$USER_UNITS/sensorwatch-notify.service.d/test.conf" <<UNIT
[Service]
ExecStart=
ExecStart=$BIN notify --config $WORK/sensorwatch.json5
ReadWritePaths=$WORK/out
WatchdogSec=2s
WatchdogSignal=SIGKILL
RestartSec=3s
UNIT
systemctl --user daemon-reload
UNIT=sensorwatch-notify.service
prop() { unit_prop "$@"; }
on_fail() { systemctl --user status sensorwatch-notify.service --no-pager || true; journalctl --no-pager -o cat | tail -20; }

systemctl --user start sensorwatch-notify.service || fail "start failed"
first=$(prop MainPID)
[ "$(prop WatchdogUSec)" = 2s ] || fail "WatchdogUSec is $(prop WatchdogUSec)"
# Alive for three watchdog periods (an event delivered meanwhile): not restarted. An idle
# notify must feed the watchdog too, not only when events come.
alert_event firing cpu-hot critical
wait_for "the delivery" 100 test -s "$WORK/out/events"
# The later event: a ping three watchdog periods (6 s) after the delivery.
since_start=$(( $(python3 -c 'import time; print(time.monotonic_ns() // 1000)') - $(prop ExecMainStartTimestampMonotonic) ))
running() { prop_is NRestarts 0 && prop_is MainPID "$first" || fail "restarted while notify ran (result $(prop Result))"; }
fed() { running && fed_for $(( since_start / 1000000 + 6 )); }
WAIT_EVERY=0.5 wait_for "watchdog pings for three periods after the delivery" 60 fed
[ "$(prop Result)" = success ] || fail "result $(prop Result) while running"

kill -STOP "$first"
wait_for "the watchdog to fire" 60 prop_is Result watchdog
wait_for "a watchdog restart" 100 prop_at_least NRestarts 1
wait_for "the restarted service" 50 prop_is ActiveState active
second=$(prop MainPID)
[ "$second" != "$first" ] || fail "same process after the restart"
kill -0 "$first" 2>/dev/null && fail "the frozen process $first still exists"
# The new process delivers.
alert_event firing cpu-hot-2 critical
wait_for "a delivery after the restart" 100 grep -q "firing cpu-hot-2" "$WORK/out/events"
note "unit-notify-watchdog: ok (frozen $first killed by the watchdog, restarted as $second)"
