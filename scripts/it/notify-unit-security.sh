#!/usr/bin/env bash
# sensorwatch-notify.service: Type=notify with a StateDirectory, hardened except for the
# network it needs (exposure 1.5 or less, docs/decisions.md), and `systemd-analyze verify`
# clean with its man pages.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
need systemd-analyze systemd
unit=$ROOT/systemd/sensorwatch-notify.service

line=$(systemd-analyze security --offline=yes "$unit" 2>&1 | grep 'Overall exposure level') \
    || fail "systemd-analyze security printed no overall exposure"
echo "$line"
score=$(sed -E 's/.*: ([0-9]+\.[0-9]+).*/\1/' <<<"$line")
awk -v s="$score" 'BEGIN { exit !(s <= 1.5) }' || fail "exposure $score is above 1.5"

exe=/bin/true
if [ -x "$SENSORWATCH" ]; then exe=$SENSORWATCH; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed "s|/usr/local/bin/sensorwatch|$exe|" "$unit" >"$tmp/sensorwatch-notify.service"
mkdir -p "$tmp/man/man8" "$tmp/man/man5"
cp "$ROOT/man/sensorwatch.8" "$tmp/man/man8/"
cp "$ROOT/man/sensorwatch.json5.5" "$tmp/man/man5/"
out=$(MANPATH=$tmp/man systemd-analyze verify "$tmp/sensorwatch-notify.service" 2>&1) || fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify is not clean: $out"

grep -qx 'Type=notify' "$unit" || fail "not Type=notify"
grep -qx 'StateDirectory=sensorwatch-notify' "$unit" || fail "no StateDirectory="
grep -q '^ExecStart=/usr/local/bin/sensorwatch notify ' "$unit" || fail "ExecStart does not run notify"
grep -qx 'PrivateNetwork=yes' "$unit" && fail "PrivateNetwork= would cut off Alertmanager"
note "notify unit: $line"
