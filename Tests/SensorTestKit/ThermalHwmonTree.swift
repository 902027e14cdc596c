extension TemporaryDirectory {
    /// A sysfs tree as a laptop's kernel with `CONFIG_THERMAL_HWMON` shows it: `class/thermal`
    /// and `class/hwmon` linking into `devices/`.
    ///
    /// - thermal_zone0 and thermal_zone2, both `acpitz` (27.8 and 29.8 °C), devices
    ///   `LNXTHERM:00` and `:01` on the acpi bus: one hwmon chip `acpitz` under zone0 with
    ///   temp1 (zone0) and temp2 (zone2);
    /// - thermal_zone1, `x86_pkg_temp` (45 °C): opts out, no hwmon;
    /// - thermal_zone3, `cpu-thermal` (50 °C): hwmon `cpu_thermal` (the kernel's `-` → `_`);
    /// - coretemp (48 °C): a real hwmon chip, whose device is a platform device.
    public static func thermalHwmonMirrors() -> TemporaryDirectory {
        let tree = TemporaryDirectory(prefix: "sensorwatch-mirror")
        let zones = [("acpitz", "27800"), ("x86_pkg_temp", "45000"), ("acpitz", "29800"), ("cpu-thermal", "50000")]
        for (n, (type, temp)) in zones.enumerated() {
            tree.write([
                "devices/virtual/thermal/thermal_zone\(n)/type": type + "\n",
                "devices/virtual/thermal/thermal_zone\(n)/temp": temp + "\n",
            ])
            tree.symlink("class/thermal/thermal_zone\(n)", to: "../../devices/virtual/thermal/thermal_zone\(n)")
            tree.symlink("devices/virtual/thermal/thermal_zone\(n)/subsystem", to: "../../../../class/thermal")
        }
        for (zone, acpi) in [(0, "LNXTHERM:00"), (2, "LNXTHERM:01")] {
            tree.mkdir("devices/LNXSYSTM:00/" + acpi)
            tree.symlink("devices/LNXSYSTM:00/" + acpi + "/subsystem", to: "../../../bus/acpi")
            tree.symlink("devices/virtual/thermal/thermal_zone\(zone)/device", to: "../../../LNXSYSTM:00/" + acpi)
        }
        let chips = [
            ("hwmon1", "virtual/thermal/thermal_zone0", "../../thermal_zone0", "acpitz", ["27800", "29800"]),
            ("hwmon2", "virtual/thermal/thermal_zone3", "../../thermal_zone3", "cpu_thermal", ["50000"]),
            ("hwmon0", "platform/coretemp.0/hwmon", "../../../coretemp.0", "coretemp", ["48000"]),
        ]
        for (entry, parent, device, name, temps) in chips {
            let dir = "devices/" + parent + "/" + entry
            tree.write(dir + "/name", name + "\n")
            for (k, temp) in temps.enumerated() { tree.write(dir + "/temp\(k + 1)_input", temp + "\n") }
            tree.symlink(dir + "/device", to: device)
            let up = String(repeating: "../", count: 2)
            tree.symlink("class/hwmon/" + entry, to: up + dir)
        }
        tree.symlink("devices/platform/coretemp.0/subsystem", to: "../../../bus/platform")
        return tree
    }
}
