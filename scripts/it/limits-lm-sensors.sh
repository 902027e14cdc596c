#!/usr/bin/env bash
# The hardware's limits (SPEC §16) against lm-sensors itself: fake hwmon chips modelled on
# coretemp, k10temp, nvme, nct6798, it87, sht3x, an acpitz mirror and drivetemp are
# bind-mounted over /sys/class/hwmon in a private mount namespace, and `sensors -j` (Debian's
# lm-sensors, with an empty configuration so no label or compute line interferes) is the
# peer that says which file means which limit. Every sensor lm-sensors shows must be ours
# with the same value, every limit it shows that §16 calls plausible must be ours with the
# same value (and no other), and every other one must be listed as ignored, with a reason.
# The thermal zones the acpitz chip mirrors must carry the same crit as their mirror. Then ids:
# chip names against lm-sensors' on trees linked into /sys/devices (below).
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
# Both zones are `acpitz`, without a device: numbered by zone number (SPEC §4).
zones = [ours["thermal:acpitz" + (".%d" % n if n else "")]["limits"] for n in range(len(crits))]
bad = [(z, c) for z, c in zip(zones, crits) if abs(z["crit"] - c) > 0.0005]
assert zones[1]["passive"] == 95, zones
print("# %d thermal zones carry their mirror's crit" % len(zones))
sys.exit(1 if bad else 0)
PY

# Ids (SPEC §4): on a tree with a chip on every bus libsensors names, linked into a fake
# /sys/devices as sysfs links them, every chip part of our ids is the chip name `sensors -j`
# prints, and the values under it are lm-sensors'. Other numbering, a drive added at a lower
# PCI address and a drive removed change no id.
umount /sys/class/hwmon
# SPEC §20: `check` warns (exit 0, stderr) about ids of the old form and names the new one.
check_old_ids() {
    cat >"$work/old.json5" <<'CONF'
{ sources: [{ type: "hwmon" }],
  rules: [{ name: "disk", sensor: "hwmon:nvme.1/temp1", above: 70 },
          { name: "cpu", sensor: "hwmon:coretemp-isa-0000/temp1", above: 90 }] }
CONF
    "$SENSORWATCH" check --config "$work/old.json5" >"$work/check.out" 2>"$work/check.err" \
        || fail "check of old ids exited $?: $(cat "$work/check.err")"
    # The old id selects nothing here: check says that too, on stdout (issue 34).
    [ "$(cat "$work/check.out")" = "$work/old.json5: rules[0]: warning: rule \"disk\" selects no sensor of this machine: sensor \"hwmon:nvme.1/temp1\" matches no sensor id (no id is close to it; \`sensorwatch sensors\` lists them)
OK" ] || fail "check printed: $(cat "$work/check.out")"
    local want="$work/old.json5: rules[0].sensor: warning: \"hwmon:nvme.1/temp1\" is an id of the form used before ids named devices (see SENSORS in man sensorwatch); on this machine it is \"hwmon:nvme-pci-0500/temp1\""
    [ "$(cat "$work/check.err")" = "$want" ] || fail "check warned:
$(cat "$work/check.err")
expected
$want"
    echo "# check: $(cat "$work/check.err")" >&2
}
ids_of() {  # VARIANT: builds that tree, mounts it, checks it against lm-sensors, prints our ids
    local dir="$work/$1"
    python3 "$lib/chips.py" buses "$dir" "$1"
    mount --bind "$dir/class/hwmon" /sys/class/hwmon
    mount --bind "$dir/devices" /sys/devices
    sensors -c "$work/empty.conf" -j >"$dir/lm.json" 2>"$dir/lm.err" || { cat "$dir/lm.err"; fail "$1: sensors -j failed"; }
    "$SENSORWATCH" sensors --json --config "$work/sensorwatch.json5" >"$dir/ours.json" || fail "$1: sensorwatch sensors failed"
    [ "$1" != boot ] || check_old_ids
    umount /sys/devices
    umount /sys/class/hwmon
    python3 "$lib/chips.py" chipnames "$dir/ours.json" "$dir/lm.json" >&2 || {
        cat "$dir/lm.json" "$dir/ours.json" >&2; fail "$1: chip names differ from lm-sensors'"; }
    python3 "$lib/chips.py" compare "$dir/ours.json" "$dir/lm.json" temp,fan,in >&2 \
        || fail "$1: values differ from lm-sensors'"
    python3 "$lib/chips.py" ids "$dir/ours.json"
}
ids_of boot >"$work/boot.ids"
ids_of permuted >"$work/permuted.ids"
diff "$work/boot.ids" "$work/permuted.ids" || fail "renumbered hwmonN changed ids"
ids_of added >"$work/added.ids"
grep -q '^hwmon:nvme-pci-0100/temp1 31' "$work/added.ids" || fail "the added drive is not hwmon:nvme-pci-0100"
grep -v '^hwmon:nvme-pci-0100/' "$work/added.ids" | diff "$work/boot.ids" - || fail "an added drive changed other ids"
ids_of removed >"$work/removed.ids"
grep -v '^hwmon:nvme-pci-0200/' "$work/boot.ids" | diff - "$work/removed.ids" || fail "a removed drive changed other ids"
echo "ok: ids are lm-sensors' chip names, and do not follow hwmonN numbering or other drives"
echo "ok: limits agree with lm-sensors"
