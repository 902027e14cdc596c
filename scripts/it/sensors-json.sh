#!/usr/bin/env bash
# `sensorwatch sensors --json` on sysfs trees written here from the kernel ABI and on the
# shared real fixtures: the output must be one valid JSON array with the right ids,
# labels, quantities, units and values, `value: null` + `error` for failed reads,
# `mirrors` on an hwmon sensor that re-exports a thermal zone, and `limits` where a driver
# declares them.
set -euo pipefail
: "${SENSORWATCH:?path of the release binary}"
: "${SHARED:?path of the shared directory}"
source "$(dirname "$0")/lib/common.sh"
require_binary
need python3 python3

work=$(mktemp -d /tmp/sensorwatch-it-sensors.XXXXXX)
trap 'rm -rf "$work"' EXIT

w() { tree_file "$work/$1" "$2"; }

# thermal: a normal zone, a negative one, one with garbage, one with the kernel's invalid sentinel
w t/thermal_zone0/type x86_pkg_temp;  w t/thermal_zone0/temp 45000
w t/thermal_zone1/type acpitz;        w t/thermal_zone1/temp -44000
w t/thermal_zone2/type iwlwifi_1;     w t/thermal_zone2/temp garbage
w t/thermal_zone3/type cpu-thermal;   w t/thermal_zone3/temp -274000
w t/thermal_zone4/type empty_zone;    : >"$work/t/thermal_zone4/temp"

# hwmon: sht3x humidity (class link -> device dir), two coretemp chips, an old-style driver
mkdir -p "$work/h/class/hwmon"
d=h/devices/i2c-1/1-0044/hwmon/hwmon2
w $d/name sht3x; w $d/temp1_input 23450; w $d/humidity1_input 45120
ln -s ../.. "$work/$d/device"; ln -s "../../${d#h/}" "$work/h/class/hwmon/hwmon2"
for pair in "hwmon0 coretemp.1 31000" "hwmon1 coretemp.0 30000"; do
    set -- $pair
    d=h/devices/platform/$2/hwmon/$1
    w $d/name coretemp; w $d/temp1_input $3; w $d/temp1_label "Package id 0"
    ln -s ../.. "$work/$d/device"; ln -s "../../${d#h/}" "$work/h/class/hwmon/$1"
done
d=h/devices/platform/w83627hf.656
w $d/name w83627hf; w $d/temp1_input 41000; w $d/temp1_label CPU; mkdir -p "$work/$d/hwmon/hwmon3"
ln -s ../.. "$work/$d/hwmon/hwmon3/device"; ln -s "../../${d#h/}/hwmon/hwmon3" "$work/h/class/hwmon/hwmon3"

# hwmon re-exporting a thermal zone (CONFIG_THERMAL_HWMON): the chip lives under the zone
d=m/devices/virtual/thermal/thermal_zone0
w $d/type acpitz; w $d/temp 27800; w $d/hwmon1/name acpitz; w $d/hwmon1/temp1_input 27800
ln -s ../../thermal_zone0 "$work/$d/hwmon1/device"
mkdir -p "$work/m/class/hwmon"; ln -s "../../${d#m/}/hwmon1" "$work/m/class/hwmon/hwmon1"

# iio: bme280 processed, hdc100x raw/offset/scale named by its I2C address, bmp280 raw*scale
w i/iio:device0/name bme280
w i/iio:device0/in_temp_input 24380; w i/iio:device0/in_pressure_input 102.129031250
w i/iio:device0/in_humidityrelative_input 39396
w i/iio:device1/name 1-0040
w i/iio:device1/in_temp_raw 26000; w i/iio:device1/in_temp_offset -15887.515151
w i/iio:device1/in_temp_scale 2.517700195
w i/iio:device1/in_humidityrelative_raw 30000; w i/iio:device1/in_humidityrelative_scale 1.525878906
w i/iio:device2/name bmp280
w i/iio:device2/in_temp_raw 2438; w i/iio:device2/in_temp_scale 10
w i/iio:device2/in_pressure_raw 26145062; w i/iio:device2/in_pressure_scale 0.000003906

# The shared fixture, in place; rebuilt under $work when its symlinks were stored as files.
. "$(dirname "$0")/lib/fixtures.sh"
fixture=$(node_exporter_fixture "$work/fx")

cat >"$work/sensorwatch.json5" <<CONF
{
  sources: [
    { type: "thermal", root: "$work/t" },
    { type: "hwmon", root: "$work/h/class/hwmon" },
    { type: "iio", root: "$work/i" },
    { type: "thermal", root: "$fixture/sys/class/thermal" },
    { type: "hwmon", root: "$fixture/sys/class/hwmon", include: ["hwmon:coretemp*", "hwmon:hwmon4/*"] },
    { type: "hwmon", root: "$work/m/class/hwmon" },
  ],
  rules: [],
}
CONF

set +e
"$SENSORWATCH" sensors --json --config "$work/sensorwatch.json5" >"$work/out.json" 2>"$work/err"
rc=$?
set -e
[ $rc -eq 0 ] || { echo "sensors exited $rc:"; cat "$work/err"; exit 1; }

python3 - "$work/out.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
assert isinstance(data, list), "not an array"
got = {}
for d in data: got.setdefault(d["id"], d)
ids = [d["id"] for d in data]
for d in data:
    assert set(d) - {"error", "mirrors", "limits", "ignoredLimits"} == {"id", "label", "quantity", "unit", "value"}, d
    assert ("mirrors" in d) == (d["id"] == "hwmon:acpitz-isa-0000/temp1"), d
    assert (d["value"] is None) == ("error" in d), d

def check(id, value=None, label=None, quantity=None, unit=None, error=None):
    assert id in got, f"missing {id}; have {ids}"
    d = got[id]
    if error is not None:
        assert d["value"] is None and d["error"].startswith(error), d
    else:
        assert d["value"] is not None and abs(d["value"] - value) < 1e-6, d
    for k, v in (("label", label), ("quantity", quantity), ("unit", unit)):
        if v is not None: assert d[k] == v, (d, k, v)

check("thermal:x86_pkg_temp", 45, "x86_pkg_temp", "temperature", "°C")
check("thermal:acpitz", -44, "acpitz")
check("thermal:iwlwifi_1", error='not a number: "garbage"')
check("thermal:cpu-thermal", error="out of range")
check("thermal:empty_zone", error="empty")
check("hwmon:sht3x-i2c-1-44/temp1", 23.45, "", "temperature", "°C")
check("hwmon:sht3x-i2c-1-44/humidity1", 45.12, "", "humidity", "%RH")
check("hwmon:coretemp-isa-0000/temp1", 30, "Package id 0")  # coretemp.0: lm-sensors' coretemp-isa-0000
check("hwmon:coretemp-isa-0001/temp1", 31)
# the fixture's coretemp declares max and crit (SPEC §16)
assert any(d.get("limits") == {"max": 84, "crit": 100} for d in data if d["id"] == "hwmon:coretemp-isa-0001/temp1"), data
check("hwmon:w83627hf-isa-0290/temp1", 41, "CPU")
check("iio:bme280/temp", 24.38, "", "temperature", "°C")
check("iio:bme280/pressure", 1021.2903125, "", "pressure", "hPa")
check("iio:bme280/humidityrelative", 39.396, "", "humidity", "%RH")
check("iio:1-0040/temp", (26000 - 15887.515151) * 2.517700195 / 1000)
check("iio:1-0040/humidityrelative", 30000 * 1.525878906 / 1000)
check("iio:bmp280/temp", 24.38)
check("iio:bmp280/pressure", 26145062 * 0.000003906 * 10)
check("hwmon:acpitz-isa-0000/temp1", 27.8)
assert got["hwmon:acpitz-isa-0000/temp1"]["mirrors"] == "thermal:acpitz", got["hwmon:acpitz-isa-0000/temp1"]
# the real node_exporter tree (its zone's type repeats the written tree's, so look by position)
fx = [d for d in data if d["id"] == "thermal:cpu-thermal"]
assert len(fx) == 2 and fx[1]["label"] == "cpu-thermal" and fx[1]["value"] == 12.376, fx
fxh = [d for d in data if d["id"].startswith("hwmon:coretemp") or d["id"].startswith("hwmon:hwmon4")]
assert sum(1 for d in fxh if d["id"].startswith("hwmon:hwmon4/")) == 2, fxh
assert any(d["label"] == "Physical id 0" for d in fxh), fxh
# sources in config order, ids sorted within a source
sizes, start = [5, 5, 7, 1, 12, 1], 0
assert len(data) == sum(sizes), (len(data), ids)
for n in sizes:
    group = [i.encode() for i in ids[start:start + n]]
    assert group == sorted(group), group
    start += n
print(f"ok: {len(data)} sensors")
PY
