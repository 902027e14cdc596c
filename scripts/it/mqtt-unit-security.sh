#!/usr/bin/env bash
# sensorwatch-mqtt.service (SPEC §24): Type=notify with a watchdog, hardened as the notifier's
# unit except that it has the network the broker needs (exposure 1.5 or less), `systemd-analyze
# verify` clean with its man pages; the daemon's own unit keeps PrivateNetwork=yes.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
need systemd-analyze systemd
unit=$ROOT/systemd/sensorwatch-mqtt.service

check_unit_hardening "$unit" 1.5

grep -qx 'Type=notify' "$unit" || fail "not Type=notify"
grep -qx 'WatchdogSec=20s' "$unit" || fail "no watchdog"
grep -qx 'RestartPreventExitStatus=78 69' "$unit" || fail "restarts on a configuration error or a missing libmosquitto"
grep -q '^ExecStart=/usr/local/bin/sensorwatch mqtt ' "$unit" || fail "ExecStart does not run mqtt"
! grep -qx 'PrivateNetwork=yes' "$unit" || fail "PrivateNetwork= would cut off the broker"
grep -qx 'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6' "$unit" || fail "address families"
grep -qx 'PrivateNetwork=yes' "$ROOT/systemd/sensorwatch.service" || fail "the daemon's unit lost PrivateNetwork=yes"
note "mqtt unit: $exposure_line"
echo "ok"
