#!/usr/bin/env python3
"""Fake hwmon chips modelled on real drivers, and the agreement check with lm-sensors.

  chips.py build DIR         writes DIR/hwmon/hwmonN (plain directories, no device link, so
                             libsensors sees each as a virtual device) and DIR/thermal
                             (zones whose critical trips the acpitz chip mirrors)
  chips.py buses DIR VARIANT writes DIR/class/hwmon and DIR/devices: one chip on each bus
                             libsensors names (platform, pci, nvme behind pci, i2c, acpi behind
                             a thermal zone, virtual, hid, scsi, mdio, spi), with `device` and
                             `subsystem` links as sysfs has them, to mount over /sys/class/hwmon
                             and /sys/devices. VARIANT: `boot` (as numbered at one boot),
                             `permuted` (other hwmonN numbers), `added` (an NVMe drive at a lower
                             PCI address, registered first), `removed` (one NVMe drive gone)
  chips.py ids OURS          prints `id value` of every hwmon sensor of OURS, sorted
  chips.py chipnames OURS LM every chip part of OURS' hwmon ids must be a chip LM prints, and
                             every chip LM prints one of ours
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


# Devices of the bus tree: path under devices/, subsystem (None: no link), `device` link target.
NVME = "pci0000:00/0000:00:1d.0/0000:%s:00.0"
BUS_DEVICES = [
    ("platform/coretemp.0", "platform", None),
    ("platform/nct6775.656", "platform", None),
    ("pci0000:00/0000:00:01.0/0000:03:00.0", "pci", None),
    ("pci0000:00/0000:00:1f.4/i2c-1/1-0048", "i2c", None),
    ("pci0000:00/0000:00:1f.4/i2c-2/2-0044", "i2c", None),
    ("LNXSYSTM:00/LNXSYBUS:01/LNXTHERM:00", "acpi", None),
    ("virtual/thermal/thermal_zone0", "thermal", "LNXSYSTM:00/LNXSYBUS:01/LNXTHERM:00"),
    ("virtual/thermal/thermal_zone1", "thermal", None),
    ("pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:1B1C:1C05.0001", "hid", None),
    ("pci0000:00/0000:00:17.0/ata3/host2/target2:0:1/2:0:1:0", "scsi", None),
    ("platform/stmmac-0/mdio_bus/stmmac-0/stmmac-0:01", "mdio_bus", None),
    ("platform/spi0/spi_master/spi0/spi0.1", "spi", None),
]
# Chips: key, name, parent device (None: virtual), files.
BUS_CHIPS = [
    ("coretemp", "coretemp", "platform/coretemp.0", {"temp1_label": "Package id 0", "temp1_input": 45000}),
    ("nct", "nct6798", "platform/nct6775.656", {"temp1_input": 30000, "fan2_input": 1264, "in0_input": 1008}),
    ("gpu", "amdgpu", "pci0000:00/0000:00:01.0/0000:03:00.0", {"temp1_label": "edge", "temp1_input": 52000}),
    ("lm75", "lm75", "pci0000:00/0000:00:1f.4/i2c-1/1-0048", {"temp1_input": 31500}),
    ("sht3x", "sht3x", "pci0000:00/0000:00:1f.4/i2c-2/2-0044", {"temp1_input": 23450, "humidity1_input": 45120}),
    ("acpitz", "acpitz", "virtual/thermal/thermal_zone0", {"temp1_input": 27800}),
    ("iwlwifi", "iwlwifi_1", "virtual/thermal/thermal_zone1", {"temp1_input": 38000}),
    ("virtual", "pch_cannonlake", None, {"temp1_input": 47000}),
    ("hid", "corsairpsu", "pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:1B1C:1C05.0001", {"temp1_input": 33000}),
    ("scsi", "drivetemp", "pci0000:00/0000:00:17.0/ata3/host2/target2:0:1/2:0:1:0", {"temp1_input": 35000}),
    ("mdio", "marvell", "platform/stmmac-0/mdio_bus/stmmac-0/stmmac-0:01", {"temp1_input": 41000}),
    ("spi", "max31722", "platform/spi0/spi_master/spi0/spi0.1", {"temp1_input": 24000}),
]


def link(path, target):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def relative(path, start):
    return os.path.relpath(path, start)


def buses(root, variant):
    """A sysfs tree of chips on every bus, numbered as one boot (or another) numbers them."""
    devices = list(BUS_DEVICES)
    chips = list(BUS_CHIPS)
    drives = {"boot": ["02", "05"], "permuted": ["02", "05"], "added": ["01", "02", "05"], "removed": ["05"]}[variant]
    for bus in drives:
        pci = NVME % bus
        devices += [(pci, "pci", None), (pci + "/nvme/nvme" + bus, "nvme", pci)]
        chips.append(("nvme" + bus, "nvme", pci + "/nvme/nvme" + bus,
                      {"temp1_label": "Composite", "temp1_input": 30000 + int(bus) * 1000}))
    # The added drive registers first; `permuted` reverses the order the kernel numbered them in.
    chips.sort(key=lambda c: c[0] != "nvme01")
    if variant == "permuted":
        chips.reverse()
    dev = os.path.join(root, "devices")
    for path, subsystem, target in devices:
        d = os.path.join(dev, path)
        os.makedirs(d, exist_ok=True)
        if subsystem:
            kind = "class" if subsystem in ("nvme", "thermal") else "bus"
            link(os.path.join(d, "subsystem"), relative(os.path.join(root, kind, subsystem), d))
        if target:
            link(os.path.join(d, "device"), relative(os.path.join(dev, target), d))
    os.makedirs(os.path.join(root, "class", "hwmon"))
    for n, (_, name, parent, files) in enumerate(chips):
        d = os.path.join(dev, parent or "virtual/hwmon", "hwmon", f"hwmon{n}")
        os.makedirs(d)
        write(os.path.join(d, "name"), name)
        for f, v in files.items():
            write(os.path.join(d, f), v)
        if parent:
            link(os.path.join(d, "device"), relative(os.path.join(dev, parent), d))
        link(os.path.join(root, "class", "hwmon", f"hwmon{n}"), relative(d, os.path.join(root, "class", "hwmon")))


def hwmon_ids(ours_path):
    return {s["id"]: s["value"] for s in json.load(open(ours_path)) if s["id"].startswith("hwmon:")}


def chipnames(ours_path, lm_path):
    ours = {i.split(":", 1)[1].split("/")[0] for i in hwmon_ids(ours_path)}
    lm = set(json.load(open(lm_path)))
    for c in sorted(ours - lm):
        print(f"mismatch: sensorwatch chip {c} is not one lm-sensors names")
    for c in sorted(lm - ours):
        print(f"mismatch: lm-sensors chip {c} is not one of sensorwatch's")
    print(f"# {len(ours & lm)} chip names agree with lm-sensors: {' '.join(sorted(ours & lm))}")
    return 1 if ours != lm or not ours else 0


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
                sid = f"hwmon:{chip}/{stem}"
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
        # Ours are lm-sensors' names (`coretemp-isa-0000`), which sort by address as
        # node_exporter's chip ids sort by device path.
        ids = sorted(c for c in ours_chips if c.split("-")[0] == driver)
        for chip, ours_name in zip(group, ids):
            claimed[chip] = [ours_name]
    lm, problems = {}, []
    taken = {n for c in claimed.values() for n in c}
    for chip, stems in sorted(chips.items()):
        named = [c for c in ours_chips if c.split("-")[0] in names.get(chip, [])]
        candidates = claimed.get(chip) or named or [c for c in ours_chips if c not in taken]
        def fits(c):
            return all((m := ours.get(f"hwmon:{c}/{stem}")) and m["value"] is not None
                       and abs(m["value"] - subs[f"{stem}_input"]) <= 0.0005 for stem, subs in stems.items())
        match = next((c for c in candidates if fits(c)), None)
        if match is None:
            problems.append(f"node_exporter chip {chip} ({sorted(stems)}) is none of ours among {candidates}")
            continue
        lm[match] = stems
    for name, labels, value in series:
        if name == "node_thermal_zone_temp":
            mine = ours.get(f"thermal:{labels['type']}")
            if mine is None or abs(mine["value"] - value) > 0.0005:
                problems.append(f"thermal zone {labels['zone']}: node_exporter {value}, sensorwatch {mine}")
    return lm, problems


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
    elif sys.argv[1] == "buses":
        buses(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "ids":
        for k, v in sorted(hwmon_ids(sys.argv[2]).items()):
            print(k, v)
    elif sys.argv[1] == "chipnames":
        sys.exit(chipnames(sys.argv[2], sys.argv[3]))
    elif sys.argv[1] == "nodeexp":
        lm, problems = node_exporter_as_lm(sys.argv[2], sys.argv[3])
        for p in problems:
            print("mismatch:", p)
        json.dump(lm, open(sys.argv[3] + ".json", "w"), indent=1)
        rc = compare(sys.argv[2], sys.argv[3] + ".json", ["temp", "fan", "in", "curr", "power"], peer="node_exporter")
        sys.exit(1 if problems or rc else 0)
    else:
        sys.exit(compare(sys.argv[2], sys.argv[3], sys.argv[4].split(",")))
