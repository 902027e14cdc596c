#!/usr/bin/env bash
# The unit is hardened to an exposure of 1.0 or less and `systemd-analyze verify` is clean
# (its Documentation= man pages included).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
need systemd-analyze systemd
unit=$ROOT/systemd/sensorwatch.service

check_unit_hardening "$unit" 1.0

grep -qx 'Type=notify' "$unit" || fail "not Type=notify"
grep -qx 'RestartPreventExitStatus=78' "$unit" || fail "no RestartPreventExitStatus=78"
# The metrics textfile's directory (SPEC §12), readable by node_exporter.
grep -qx 'RuntimeDirectory=sensorwatch' "$unit" || fail "no RuntimeDirectory=sensorwatch"
grep -qx 'RuntimeDirectoryMode=0755' "$unit" || fail "no RuntimeDirectoryMode=0755"
note "exposure $exposure, verify clean"
