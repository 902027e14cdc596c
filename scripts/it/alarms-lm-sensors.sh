#!/usr/bin/env bash
# The chips' own alarms (SPEC §16b) against lm-sensors itself: fake hwmon chips with alarm
# files of every kind (`<ch>_alarm`, `<ch>_<limit>_alarm` for temperatures, fans, voltages,
# power and current; some set, some not) are bind-mounted over /sys/class/hwmon in a private
# mount namespace, and `sensors -u` (with an empty configuration) says which inputs are in
# alarm. `sensorwatch sensors --json` must list, for every input lm-sensors shows, exactly the
# alarms lm-sensors reads as 1 (`alarms`), and the table must print ALARM after them.
set -euo pipefail
: "${SENSORWATCH:?path of the release binary}"
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/lmsensors.sh"
lmsensors_setup "$@"

work=$(mktemp -d /tmp/sensorwatch-it-alarms.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
h=$work/hwmon
w() { tree_file "$h/$1" "$2"; }
# Chips without a device link: lm-sensors names them NAME-virtual-N.
w hwmon0/name nct6798
w hwmon0/temp1_input 45000; w hwmon0/temp1_max 80000; w hwmon0/temp1_crit 100000
w hwmon0/temp1_max_alarm 0; w hwmon0/temp1_crit_alarm 1
w hwmon0/temp2_input 30000; w hwmon0/temp2_alarm 1; w hwmon0/temp2_lcrit_alarm 0
w hwmon0/temp3_input 35000; w hwmon0/temp3_max_alarm 0; w hwmon0/temp3_min_alarm 1; w hwmon0/temp3_emergency_alarm 1
w hwmon0/fan1_input 1200; w hwmon0/fan1_min 300; w hwmon0/fan1_alarm 0
w hwmon0/fan2_input 0; w hwmon0/fan2_min 300; w hwmon0/fan2_alarm 1; w hwmon0/fan2_min_alarm 1
w hwmon0/in0_input 1200; w hwmon0/in0_min 1000; w hwmon0/in0_max 1300; w hwmon0/in0_alarm 0
w hwmon0/in1_input 3300; w hwmon0/in1_min_alarm 0; w hwmon0/in1_max_alarm 1; w hwmon0/in1_crit_alarm 0; w hwmon0/in1_lcrit_alarm 1
w hwmon1/name ina3221
w hwmon1/power1_input 5000000; w hwmon1/power1_alarm 0; w hwmon1/power1_cap_alarm 1; w hwmon1/power1_max_alarm 0; w hwmon1/power1_crit_alarm 1
w hwmon1/curr1_input 500; w hwmon1/curr1_max_alarm 1; w hwmon1/curr1_lcrit_alarm 0; w hwmon1/curr1_alarm 1
w hwmon1/curr2_input 250; w hwmon1/curr2_min_alarm 0

mount_hwmon_tree "$h"
: >"$work/empty.conf"
sensors -c "$work/empty.conf" -u >"$work/lm.txt" 2>"$work/lm.err" || { cat "$work/lm.err"; fail "sensors -u failed"; }
cat >"$work/sensorwatch.json5" <<CONF
{ sources: [ { type: "hwmon" } ], rules: [] }
CONF
"$SENSORWATCH" sensors --json --config "$work/sensorwatch.json5" >"$work/ours.json" || fail "sensorwatch sensors --json failed"
"$SENSORWATCH" sensors --config "$work/sensorwatch.json5" >"$work/ours.txt" || fail "sensorwatch sensors failed"

python3 - "$work/lm.txt" "$work/ours.json" "$work/ours.txt" <<'PY' || { cat "$work/lm.txt"; cat "$work/ours.json"; fail "sensorwatch and lm-sensors disagree on the alarms"; }
import json, re, sys
# sensors -u: a chip line, "Adapter: …", then features ("temp1:") with indented subfeatures.
lm = {}   # (driver, stem) -> set of alarm names reading 1
inputs = set()
chip = None
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line:
        chip = None
        continue
    if chip is None:
        chip = line.split("-")[0]
        continue
    m = re.match(r"^  ([a-z]+[0-9]+)_([a-z_]+): (\S+)$", line)
    if not m:
        continue
    stem, sub, value = m.groups()
    if sub == "input":
        inputs.add((chip, stem))
    if sub == "alarm" or sub.endswith("_alarm"):
        name = "alarm" if sub == "alarm" else sub[: -len("_alarm")]
        s = lm.setdefault((chip, stem), set())
        if float(value) != 0:
            s.add(name)
ours = {}
for s in json.load(open(sys.argv[2])):
    chip_part, stem = s["id"].split(":", 1)[1].split("/")
    driver = re.split(r"[-.]", chip_part)[0]
    ours[(driver, stem)] = (set(s.get("alarms", [])), s["id"])
table = open(sys.argv[3]).read().splitlines()
bad = []
alarmed = 0
for key in sorted(inputs):
    want = lm.get(key, set())
    if key not in ours:
        bad.append(f"{key}: lm-sensors shows it, sensorwatch does not")
        continue
    got, sid = ours[key]
    if got != want:
        bad.append(f"{key}: lm-sensors reads alarms {sorted(want)}, sensorwatch {sorted(got)}")
    row = next((r for r in table if r.startswith(sid + " ")), "")
    if bool(want) != ("ALARM" in row):
        bad.append(f"{key}: table row {row!r}")
    alarmed += bool(want)
if len(inputs) < 10 or alarmed < 7:
    bad.append(f"lm-sensors showed {len(inputs)} inputs, {alarmed} in alarm: the tree was not read as meant")
print("\n".join(bad) if bad else f"{len(inputs)} inputs, {alarmed} in alarm: the same as sensors -u")
sys.exit(1 if bad else 0)
PY
note "alarms against lm-sensors: ok"
