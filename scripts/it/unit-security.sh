#!/usr/bin/env bash
# The unit is hardened to an exposure of 1.0 or less and `systemd-analyze verify` is clean
# (its Documentation= man pages included).
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
# verify also runs `man` on each Documentation=man:… page: find them in the repository's man/.
mkdir -p "$tmp/man/man8" "$tmp/man/man5"
cp "$ROOT/man/sensorwatch.8" "$tmp/man/man8/"
cp "$ROOT/man/sensorwatch.json5.5" "$tmp/man/man5/"
out=$(MANPATH=$tmp/man systemd-analyze verify "$tmp/sensorwatch.service" 2>&1) || fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify is not clean: $out"

grep -qx 'Type=notify' "$unit" || fail "not Type=notify"
grep -qx 'RestartPreventExitStatus=78' "$unit" || fail "no RestartPreventExitStatus=78"
# The metrics textfile's directory (SPEC §12), readable by node_exporter.
grep -qx 'RuntimeDirectory=sensorwatch' "$unit" || fail "no RuntimeDirectory=sensorwatch"
grep -qx 'RuntimeDirectoryMode=0755' "$unit" || fail "no RuntimeDirectoryMode=0755"
note "exposure $score, verify clean"
