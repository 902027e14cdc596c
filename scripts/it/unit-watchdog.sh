#!/usr/bin/env bash
# A daemon that stops doing its work stops feeding the watchdog, and systemd restarts the
# service with result "watchdog". The release binary has no test hook to make its loop
# hang, so the test freezes the whole process (SIGSTOP) once it has fed the watchdog for a
# while: no loop runs, no ping comes.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_unit_test
write_scenario "$WORK/scenario.json5" "[[0, 50], [1, 51], [60, 52]]"
write_config "$WORK/sensorwatch.json5" "scenario.json5"
# A frozen process cannot take SIGABRT; SIGKILL ends it at once. The restart waits long
# enough to read the result of the failed run before the next start resets it.
test_dropin <<UNIT
WatchdogSec=2s
WatchdogSignal=SIGKILL
RestartSec=3s
UNIT

systemctl --user start sensorwatch.service || fail "start failed"
first=$(unit_prop MainPID)
# Fed for 3 s (pings every 0.5 s): no restart while the daemon runs. A ping 3 s after the
# start is the later event.
running() { prop_is NRestarts 0 && prop_is MainPID "$first" || fail "restarted while the daemon still ran"; }
fed() { running && fed_for 3; }
WAIT_EVERY=0.5 wait_for "watchdog pings for 3 s" 60 fed
[ "$(unit_prop NRestarts)" = 0 ] || fail "restarted while the daemon still ran"
[ "$(unit_prop Result)" = success ] || fail "result $(unit_prop Result) while running"
kill -STOP "$first"
# 2 s without a ping: killed, result "watchdog", then restarted (Restart=on-failure).
wait_for "the watchdog to fire" 60 prop_is Result watchdog
note "result after the missed pings: $(unit_prop Result) ($(unit_prop ActiveState)/$(unit_prop SubState))"
wait_for "a watchdog restart" 100 prop_at_least NRestarts 1
wait_for "the restarted service" 50 prop_is ActiveState active
[ "$(unit_prop MainPID)" != "$first" ] || fail "same process after the restart"
note "watchdog restarted the frozen service ($first -> $(unit_prop MainPID))"
