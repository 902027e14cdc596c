#!/usr/bin/env bash
# The hardware's limits (SPEC §16) against lm-sensors itself: fake hwmon chips modelled on
# coretemp, k10temp, nvme, nct6798, it87, sht3x, an acpitz mirror and drivetemp are
# bind-mounted over /sys/class/hwmon in a private mount namespace, and `sensors -j` (Debian's
# lm-sensors, with an empty configuration so no label or compute line interferes) is the
# peer that says which file means which limit. Every sensor lm-sensors shows must be ours
# with the same value, every limit it shows that §16 calls plausible must be ours with the
# same value (and no other), and every other one must be listed as ignored, with a reason.
# The thermal zones the acpitz chip mirrors must carry the same crit as their mirror.
set -euo pipefail
: "${SENSORWATCH:?path of the release binary}"
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/lmsensors.sh"
lmsensors_setup "$@"
KINDS=${LIMITS_KINDS:-temp,fan,in,power,curr}

work=$(mktemp -d /tmp/sensorwatch-it-limits.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
lib="$(dirname "$0")/lib"
python3 "$lib/chips.py" build "$work/tree"

mount_hwmon_tree "$work/tree/hwmon"
: >"$work/empty.conf"
sensors -c "$work/empty.conf" -j >"$work/lm.json" 2>"$work/lm.err" || { cat "$work/lm.err"; fail "sensors -j failed"; }

cat >"$work/sensorwatch.json5" <<CONF
{
  sources: [
    { type: "hwmon" },
    { type: "thermal", root: "$work/tree/thermal" },
  ],
  rules: [],
}
CONF
"$SENSORWATCH" sensors --json --config "$work/sensorwatch.json5" >"$work/ours.json" \
    || fail "sensorwatch sensors failed"
python3 "$lib/chips.py" compare "$work/ours.json" "$work/lm.json" "$KINDS" || {
    echo "--- sensors -j"; cat "$work/lm.json"; echo "--- sensorwatch sensors --json"; cat "$work/ours.json"
    fail "sensorwatch and lm-sensors disagree"
}

# The zones' critical trips are the crit their hwmon mirror shows (as lm-sensors reads it).
python3 - "$work/ours.json" "$work/lm.json" <<'PY' || fail "thermal zones and their acpitz mirror disagree"
import json, sys
ours = {s["id"]: s for s in json.load(open(sys.argv[1]))}
lm = json.load(open(sys.argv[2]))
acpi = next(v for k, v in lm.items() if k.startswith("acpitz-"))
crits = [f["temp%d_crit" % (n + 1)] for n, f in enumerate(v for v in acpi.values() if isinstance(v, dict))]
zones = [ours["thermal:thermal_zone%d" % n]["limits"] for n in range(len(crits))]
bad = [(z, c) for z, c in zip(zones, crits) if abs(z["crit"] - c) > 0.0005]
assert zones[1]["passive"] == 95, zones
print("# %d thermal zones carry their mirror's crit" % len(zones))
sys.exit(1 if bad else 0)
PY
echo "ok: limits agree with lm-sensors"
