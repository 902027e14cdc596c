#!/usr/bin/env bash
# The message catalog: `journalctl --update-catalog` takes it, and `journalctl -x` explains
# a sensorwatch entry by its MESSAGE_ID, with the entry's fields filled in.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
require_namespaces
enter_namespace
trap 'stop_journald' EXIT

# A private catalog directory and database: the host's stay untouched.
mkdir -p "$WORK/catalog" "$WORK/catalog-db"
cp /usr/lib/systemd/catalog/*.catalog "$WORK/catalog/" 2>/dev/null || true
cp "$ROOT/systemd/sensorwatch.catalog" "$WORK/catalog/"
mount --bind "$WORK/catalog" /usr/lib/systemd/catalog
mount --bind "$WORK/catalog-db" /var/lib/systemd/catalog
journalctl --update-catalog

for id in $(grep '^-- ' "$ROOT/systemd/sensorwatch.catalog" | cut -c4-); do
    journalctl --list-catalog "$id" | grep -q sensorwatch || fail "catalog entry $id not in the database"
    grep -q "\"$id\"" "$ROOT/Sources/SensorSystemd/JournalMessageID.swift" || fail "$id is not in the code"
done

start_journald
logger --journald <<ENTRY
MESSAGE=cpu-hot firing: sim:cpu (CPU package) 85 °C above 80 °C
MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769
SYSLOG_IDENTIFIER=sensorwatch
PRIORITY=2
ALERT_RULE=cpu-hot
ALERT_STATE=firing
ALERT_SEVERITY=critical
ALERT_CONDITION=above
ALERT_THRESHOLD=80
SENSOR_ID=sim:cpu
SENSOR_QUANTITY=temperature
SENSOR_VALUE=85
SENSOR_UNIT=°C
ENTRY
journalctl --sync
out=$(journalctl -x --no-pager -t sensorwatch)
echo "$out"
grep -q 'Subject: Alert cpu-hot is firing for sensor sim:cpu' <<<"$out" || fail "journalctl -x shows no subject"
grep -q 'temperature reading 85 °C' <<<"$out" || fail "journalctl -x did not fill in the fields"
grep -q 'systemctl reload sensorwatch' <<<"$out" || fail "journalctl -x does not say how to silence it"
note "catalog installed privately; journalctl -x explains the entry"
