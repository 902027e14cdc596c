#!/usr/bin/env bash
# sensorwatch-notify.service: Type=notify with a StateDirectory, hardened except for the
# network it needs (exposure 1.5 or less, docs/decisions.md), and `systemd-analyze verify`
# clean with its man pages.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
need systemd-analyze systemd
unit=$ROOT/systemd/sensorwatch-notify.service

check_unit_hardening "$unit" 1.5

grep -qx 'Type=notify' "$unit" || fail "not Type=notify"
grep -qx 'StateDirectory=sensorwatch-notify' "$unit" || fail "no StateDirectory="
grep -q '^ExecStart=/usr/local/bin/sensorwatch notify ' "$unit" || fail "ExecStart does not run notify"
grep -qx 'PrivateNetwork=yes' "$unit" && fail "PrivateNetwork= would cut off Alertmanager"
note "notify unit: $exposure_line"
