#!/usr/bin/env python3
"""Fake hwmon chips modelled on real drivers, and the agreement check with lm-sensors.

  chips.py build DIR         writes DIR/hwmon/hwmonN (plain directories, no device link, so
                             libsensors sees each as a virtual device) and DIR/thermal
                             (zones whose critical trips the acpitz chip mirrors)
  chips.py nodeexp OURS METRICS
                             METRICS: node_exporter's hwmon and thermal_zone series; every
                             temperature, fan and voltage it reports must be one of ours, with
                             the same value and every plausible limit
  chips.py compare OURS LM QUANTITIES
                             OURS: `sensorwatch sensors --json`; LM: `sensors -j`;
                             QUANTITIES: comma-separated hwmon types to compare (temp,fan,in,...)

Values are in the kernel's units (m°C, mV, rpm, µW, mA), as the drivers print them.
"""
import json
import os
import sys

CHIPS = [
    ("coretemp", {  # drivers/hwmon/coretemp.c: max = TjMax - 20 on some parts, crit = TjMax
        "temp1_label": "Package id 0", "temp1_input": 45000, "temp1_max": 80000, "temp1_crit": 100000,
        "temp1_crit_alarm": 0,
        "temp2_label": "Core 0", "temp2_input": 43000, "temp2_max": 80000, "temp2_crit": 100000,
        "temp2_crit_alarm": 0,
    }),
    ("k10temp", {  # Tctl with max and crit, Tccd without limits
        "temp1_label": "Tctl", "temp1_input": 55250, "temp1_max": 70000, "temp1_crit": 95000,
        "temp1_crit_hyst": 94000,
        "temp3_label": "Tccd1", "temp3_input": 50125,
    }),
    ("nvme", {  # sentinels of 0 K and 65535 K on the sensors without thresholds; sparse indices
        "temp1_label": "Composite", "temp1_input": 38850, "temp1_max": 81850, "temp1_min": -273150,
        "temp1_crit": 84850, "temp1_alarm": 0,
        "temp2_label": "Sensor 1", "temp2_input": 38850, "temp2_max": 65261850, "temp2_min": -273150,
        "temp9_label": "Sensor 8", "temp9_input": 44850, "temp9_max": 65261850, "temp9_min": -273150,
    }),
    ("nct6798", {  # Super-I/O: unset registers read 0; fans and voltage rails
        "temp1_label": "SYSTIN", "temp1_input": 30000, "temp1_max": 0, "temp1_max_hyst": 0, "temp1_type": 4,
        "temp2_label": "CPUTIN", "temp2_input": 35500, "temp2_max": 80000, "temp2_max_hyst": 75000,
        "temp2_crit": 125000, "temp2_type": 4,
        "temp7_label": "PECI Agent 0", "temp7_input": 40000,
        "in0_label": "Vcore", "in0_input": 1008, "in0_min": 0, "in0_max": 1744,
        "in1_input": 1016, "in1_min": 960, "in1_max": 1064,
        "in2_label": "AVSB", "in2_input": 3376, "in2_min": 2976, "in2_max": 3632,
        "in3_label": "3VCC", "in3_input": 3360, "in3_min": 0, "in3_max": 0,
        "fan1_input": 0, "fan1_min": 0,
        "fan2_label": "CPU fan", "fan2_input": 1264, "fan2_min": 300,
        "fan3_input": 860, "fan3_min": 0, "fan3_max": 0,
    }),
    ("it8792", {  # it87 family: fans with min, voltages with min and max
        "temp1_input": 41000, "temp1_max": 127000, "temp1_min": 127000,
        "temp2_input": 39000, "temp2_max": 90000, "temp2_min": 10000,
        "in0_input": 1392, "in0_min": 1200, "in0_max": 1500,
        "in1_input": 1824, "in1_min": 0, "in1_max": 3060,
        "fan1_input": 2343, "fan1_min": 600,
        "fan2_input": 0, "fan2_min": 0,
    }),
    ("sht3x", {  # absolute hysteresis on both sides
        "temp1_input": 23450, "temp1_max": 60000, "temp1_max_hyst": 58000, "temp1_min": -10000,
        "temp1_min_hyst": -8000, "temp1_alarm": 0,
        "humidity1_input": 45120, "humidity1_max": 80000, "humidity1_min": 20000,
    }),
    ("acpitz", {  # the kernel's hwmon mirror of two ACPI zones: input and the critical trip
        "temp1_input": 27800, "temp1_crit": 105000,
        "temp2_input": 29800, "temp2_crit": 105000,
    }),
    ("amdgpu", {  # a GPU: power as an average with a cap, crit_hyst the 0 K sentinel
        "temp1_label": "edge", "temp1_input": 52000, "temp1_crit": 100000, "temp1_crit_hyst": -273150,
        "in0_label": "vddgfx", "in0_input": 806,
        "power1_label": "PPT", "power1_average": 23500000, "power1_cap": 65000000,
    }),
    ("ina3221", {  # a power monitor: bus voltages and currents with limits
        "in1_label": "VDD_IN", "in1_input": 12016,
        "curr1_label": "VDD_IN", "curr1_input": 1250, "curr1_max": 5000, "curr1_crit": 6000,
        "curr2_input": 0, "curr2_max": 0,
    }),
    ("drivetemp", {  # SCT temperature limits of a SATA disk
        "temp1_input": 35000, "temp1_lowest": 20000, "temp1_highest": 45000,
        "temp1_lcrit": -40000, "temp1_min": 0, "temp1_max": 60000, "temp1_crit": 70000,
    }),
]

ZONES = [  # mirrored by acpitz temp1, temp2
    {"type": "acpitz", "temp": 27800, "trip_point_0_type": "critical", "trip_point_0_temp": 105000,
     "trip_point_0_hyst": 0},
    {"type": "acpitz", "temp": 29800, "trip_point_0_type": "critical", "trip_point_0_temp": 105000,
     "trip_point_0_hyst": 0, "trip_point_1_type": "passive", "trip_point_1_temp": 95000},
]


def write(path, value):
    with open(path, "w") as f:
        f.write(f"{value}\n")


def build(root):
    for n, (name, files) in enumerate(CHIPS):
        d = os.path.join(root, "hwmon", f"hwmon{n}")
        os.makedirs(d)
        write(os.path.join(d, "name"), name)
        for f, v in files.items():
            write(os.path.join(d, f), v)
    for n, files in enumerate(ZONES):
        d = os.path.join(root, "thermal", f"thermal_zone{n}")
        os.makedirs(d)
        for f, v in files.items():
            write(os.path.join(d, f), v)


UPPER = ["max", "crit", "emergency", "cap"]
LOWER = ["min", "lcrit"]
# The hwmon type, our quantity, and the limits §16/§16a name for it.
TYPES = {"temp": ("temperature", UPPER[:3] + LOWER), "fan": ("fan", ["min", "max"]),
         "in": ("voltage", ["min", "max", "lcrit", "crit"]), "power": ("power", ["max", "crit", "cap"]),
         "curr": ("current", ["min", "max", "lcrit", "crit"])}


def plausible(kind, found):
    """SPEC §16 written again from its text, to judge lm-sensors' numbers independently."""
    upper = {k: v for k, v in found.items() if k in UPPER}
    lower = {k: v for k, v in found.items() if k in LOWER}
    top = min(upper.values()) if upper else None
    out = {}
    for k, v in upper.items():
        if v > 0 and (kind != "temp" or v < 250):
            out[k] = v
    for k, v in lower.items():
        if kind == "temp" and v <= -273.15:
            continue
        if kind == "fan" and k == "min" and v == 0:
            continue
        if top is not None and v >= top:
            continue
        out[k] = v
    for k, v in found.items():
        if not k.endswith("_hyst"):
            continue
        base = k[:-5]
        if base not in out:
            continue
        d = (v - out[base]) if base in LOWER else (out[base] - v)
        if 0 <= d <= 50:
            out[k] = v
    return out


def compare(ours_path, lm_path, kinds, peer="lm-sensors"):
    ours = {s["id"]: s for s in json.load(open(ours_path))}
    lm = json.load(open(lm_path))
    problems, checked = [], 0
    for chip, features in lm.items():
        name = chip.split("-")[0]
        for label, subs in features.items():
            if not isinstance(subs, dict):
                continue
            for key in subs:
                if key.endswith("_input"):
                    stem = key[:-6]
                elif key.startswith("power") and key.endswith("_average") and key[:-8] + "_input" not in subs:
                    stem = key[:-8]
                else:
                    continue
                kind = stem.rstrip("0123456789")
                if kind not in kinds:
                    continue
                quantity, names = TYPES[kind]
                sid = f"hwmon:{name}/{stem}"
                mine = ours.get(sid)
                if mine is None:
                    problems.append(f"{sid}: {peer} shows it ({chip} {label}), sensorwatch does not")
                    continue
                checked += 1
                if mine["quantity"] != quantity:
                    problems.append(f"{sid}: quantity {mine['quantity']}, expected {quantity}")
                if mine["value"] is None or abs(mine["value"] - subs[key]) > 0.0005:
                    problems.append(f"{sid}: value {mine['value']}, {peer} {subs[key]}")
                found = {}
                for n in names:
                    for item in (n, n + "_hyst"):
                        if f"{stem}_{item}" in subs:
                            found[item] = subs[f"{stem}_{item}"]
                expected = plausible(kind, found)
                got = mine.get("limits", {})
                for item in sorted(set(expected) | set(got)):
                    e, g = expected.get(item), got.get(item)
                    if e is None or g is None or abs(e - g) > 0.0005:
                        problems.append(f"{sid}: limit {item}: sensorwatch {g}, {peer} {found.get(item)}"
                                        f" (plausible: {e is not None})")
                for item in found:
                    if item not in expected and item not in mine.get("ignoredLimits", {}):
                        problems.append(f"{sid}: {item} = {found[item]} is ignored without a reason")
    for p in problems:
        print("mismatch:", p)
    print(f"# {checked} sensors compared with {peer} ({','.join(kinds)})")
    return 1 if problems or checked == 0 else 0


# node_exporter's series: node_hwmon_<type>[_<item>]_<unit>{chip, sensor}.
UNITS = {"temp": "celsius", "fan": "rpm", "in": "volts", "curr": "amps", "power": "watt"}


def parse_metrics(path):
    series = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        name_labels, value = line.rsplit(" ", 1)
        name, _, labels = name_labels.partition("{")
        labels = dict(kv.split("=", 1) for kv in labels.rstrip("}").split(",") if kv)
        series.append((name, {k: v.strip('"') for k, v in labels.items()}, float(value)))
    return series


def node_exporter_as_lm(ours_path, metrics_path):
    """node_exporter's readings, shaped like `sensors -j` under our chip names."""
    ours = {s["id"]: s for s in json.load(open(ours_path))}
    series = parse_metrics(metrics_path)
    names = {}
    for name, labels, _ in series:
        if name == "node_hwmon_chip_names":
            names.setdefault(labels["chip"], []).append(labels["chip_name"])
    chips = {}
    for name, labels, value in series:
        for kind, unit in UNITS.items():
            prefix = f"node_hwmon_{kind}_"
            if not (name.startswith(prefix) and name.endswith("_" + unit) or name == f"node_hwmon_{kind}_{unit}"):
                continue
            item = name[len(prefix):-len(unit) - 1] if name != f"node_hwmon_{kind}_{unit}" else "input"
            if "alarm" in item or item not in ["input"] + TYPES[kind][1] + [n + "_hyst" for n in TYPES[kind][1]]:
                continue
            stem = labels["sensor"]
            chips.setdefault(labels["chip"], {}).setdefault(stem, {})[f"{stem}_{item}"] = value
    ours_chips = sorted({i.split(":", 1)[1].split("/")[0] for i in ours if i.startswith("hwmon:")})
    # Chips of one driver are numbered by device path, as node_exporter's chip ids sort.
    claimed, by_driver = {}, {}
    for chip in sorted(names):
        if len(names[chip]) == 1:
            by_driver.setdefault(names[chip][0], []).append(chip)
    for driver, group in by_driver.items():
        ids = [driver] + [f"{driver}.{n}" for n in range(1, len(group))]
        for chip, ours_name in zip(group, ids):
            claimed[chip] = [ours_name]
    lm, problems = {}, []
    taken = {n for c in claimed.values() for n in c}
    for chip, stems in sorted(chips.items()):
        candidates = claimed.get(chip) or names.get(chip) or [c for c in ours_chips if c not in taken]
        def fits(c):
            return all((m := ours.get(f"hwmon:{c}/{stem}")) and m["value"] is not None
                       and abs(m["value"] - subs[f"{stem}_input"]) <= 0.0005 for stem, subs in stems.items())
        match = next((c for c in candidates if fits(c)), None)
        if match is None:
            problems.append(f"node_exporter chip {chip} ({sorted(stems)}) is none of ours among {candidates}")
            continue
        lm[f"{match}-node_exporter"] = stems
    for name, labels, value in series:
        if name == "node_thermal_zone_temp":
            mine = ours.get(f"thermal:thermal_zone{labels['zone']}")
            if mine is None or abs(mine["value"] - value) > 0.0005:
                problems.append(f"thermal zone {labels['zone']}: node_exporter {value}, sensorwatch {mine}")
    return lm, problems


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
    elif sys.argv[1] == "nodeexp":
        lm, problems = node_exporter_as_lm(sys.argv[2], sys.argv[3])
        for p in problems:
            print("mismatch:", p)
        json.dump(lm, open(sys.argv[3] + ".json", "w"), indent=1)
        rc = compare(sys.argv[2], sys.argv[3] + ".json", ["temp", "fan", "in", "curr", "power"], peer="node_exporter")
        sys.exit(1 if problems or rc else 0)
    else:
        sys.exit(compare(sys.argv[2], sys.argv[3], sys.argv[4].split(",")))
