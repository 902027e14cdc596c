#!/usr/bin/env bash
# A rule loop that hangs stops feeding the watchdog, and systemd restarts the service.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
setup_unit_test
write_scenario "$WORK/scenario.json5" "[[0, 50], [1, 51], [60, 52]]"
write_config "$WORK/sensorwatch.json5" "scenario.json5"
# SENSORWATCH_TEST_HANG_AFTER: the rule loop blocks forever after that many seconds.
test_dropin <<UNIT
Environment=SENSORWATCH_TEST_HANG_AFTER=2
WatchdogSec=2s
RestartSec=200ms
UNIT

systemctl --user start sensorwatch.service || fail "start failed"
first=$(unit_prop MainPID)
# Fed for 2 s (pings at 1 s), then 2 s without a ping: restarted within about 5 s.
sleep 3
[ "$(unit_prop NRestarts)" = 0 ] || fail "restarted while the loop still ran"
# The manager restarts it only on a missed ping (Restart=on-failure, result "watchdog").
wait_for "a watchdog restart" 100 prop_at_least NRestarts 1
wait_for "the restarted service" 50 prop_is ActiveState active
[ "$(unit_prop MainPID)" != "$first" ] || fail "same process after the restart"
note "watchdog restarted the hung service ($first -> $(unit_prop MainPID))"
