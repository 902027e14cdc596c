#!/usr/bin/env bash
# The unit is hardened to an exposure of 1.0 or less and `systemd-analyze verify` is clean.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
need systemd-analyze systemd
unit=$ROOT/systemd/sensorwatch.service

line=$(systemd-analyze security --offline=yes "$unit" 2>&1 | grep 'Overall exposure level') \
    || fail "systemd-analyze security printed no overall exposure"
echo "$line"
score=$(sed -E 's/.*: ([0-9]+\.[0-9]+).*/\1/' <<<"$line")
awk -v s="$score" 'BEGIN { exit !(s <= 1.0) }' || fail "exposure $score is above 1.0"

# verify wants the ExecStart binary to exist: point it at the built one, or at /bin/true.
exe=/bin/true
if [ -x "$SENSORWATCH" ]; then exe=$SENSORWATCH; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed "s|/usr/local/bin/sensorwatch|$exe|" "$unit" >"$tmp/sensorwatch.service"
out=$(systemd-analyze verify "$tmp/sensorwatch.service" 2>&1) || fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify is not clean: $out"

grep -qx 'Type=notify' "$unit" || fail "not Type=notify"
grep -qx 'RestartPreventExitStatus=78' "$unit" || fail "no RestartPreventExitStatus=78"
note "exposure $score, verify clean"
