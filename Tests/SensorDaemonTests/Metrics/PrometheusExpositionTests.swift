@testable import SensorCore
@testable import SensorDaemon
import Testing

/// The metrics file's text, byte for byte (SPEC §12).
struct PrometheusExpositionTests {
    static let snapshot = MetricsSnapshot(
        version: "0.1.0", startTime: 1_764_583_200,
        sensors: [
            .init(
                info: SensorInfo(id: "iio:bme280/pressure", quantity: .pressure), up: true, value: 1013.25,
                lastReading: 1_764_583_466.5),
            .init(
                info: SensorInfo(id: "hwmon:sht3x/humidity1", quantity: .humidity), up: true, value: 41.5,
                lastReading: 1_764_583_466.25),
            .init(
                info: SensorInfo(id: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: .temperature), up: false,
                value: 47, lastReading: 1_764_583_465),
            .init(
                info: SensorInfo(
                    id: "thermal:thermal_zone1", label: "a \"quoted\\\" label\nwith a line feed", quantity: .temperature
                ),
                up: false, value: nil, lastReading: nil),
        ],
        alerts: [
            .init(rule: "cpu-hot", sensor: "thermal:thermal_zone1", severity: .warning, firing: false),
            .init(rule: "cpu-hot", sensor: "thermal:thermal_zone0", severity: .warning, firing: true),
            .init(rule: "dry-air", sensor: "hwmon:sht3x/humidity1", severity: .notice, firing: false),
        ],
        events: [
            .init(rule: "dry-air", event: .firing, count: 0), .init(rule: "dry-air", event: .resolved, count: 0),
            .init(rule: "dry-air", event: .repeat, count: 0), .init(rule: "cpu-hot", event: .repeat, count: 2),
            .init(rule: "cpu-hot", event: .resolved, count: 0), .init(rule: "cpu-hot", event: .firing, count: 1),
        ])

    @Test func rendersEveryFamilyWithHelpTypeBaseUnitsAndEscapedLabels() {
        #expect(
            PrometheusExposition.render(Self.snapshot) == #"""
                # HELP sensorwatch_build_info Always 1; the version label is sensorwatch's version.
                # TYPE sensorwatch_build_info gauge
                sensorwatch_build_info{version="0.1.0"} 1
                # HELP sensorwatch_start_time_seconds Unix time the sensorwatch daemon started.
                # TYPE sensorwatch_start_time_seconds gauge
                sensorwatch_start_time_seconds 1764583200
                # HELP sensorwatch_sensor_up 1 if the latest read of the sensor succeeded, else 0.
                # TYPE sensorwatch_sensor_up gauge
                sensorwatch_sensor_up{sensor="hwmon:sht3x/humidity1",quantity="humidity"} 1
                sensorwatch_sensor_up{sensor="iio:bme280/pressure",quantity="pressure"} 1
                sensorwatch_sensor_up{sensor="thermal:thermal_zone0",quantity="temperature"} 0
                sensorwatch_sensor_up{sensor="thermal:thermal_zone1",quantity="temperature"} 0
                # HELP sensorwatch_sensor_last_reading_timestamp_seconds Unix time of the latest successful read of the sensor.
                # TYPE sensorwatch_sensor_last_reading_timestamp_seconds gauge
                sensorwatch_sensor_last_reading_timestamp_seconds{sensor="hwmon:sht3x/humidity1"} 1764583466.25
                sensorwatch_sensor_last_reading_timestamp_seconds{sensor="iio:bme280/pressure"} 1764583466.5
                sensorwatch_sensor_last_reading_timestamp_seconds{sensor="thermal:thermal_zone0"} 1764583465
                # HELP sensorwatch_temperature_celsius Latest successful temperature reading in degrees Celsius.
                # TYPE sensorwatch_temperature_celsius gauge
                sensorwatch_temperature_celsius{sensor="thermal:thermal_zone0",label="x86_pkg_temp"} 47
                # HELP sensorwatch_humidity_ratio Latest successful relative humidity reading as a ratio (0.415 is 41.5 %RH).
                # TYPE sensorwatch_humidity_ratio gauge
                sensorwatch_humidity_ratio{sensor="hwmon:sht3x/humidity1",label=""} 0.415
                # HELP sensorwatch_pressure_pascals Latest successful pressure reading in pascals (hPa × 100).
                # TYPE sensorwatch_pressure_pascals gauge
                sensorwatch_pressure_pascals{sensor="iio:bme280/pressure",label=""} 101325
                # HELP sensorwatch_alert_firing 1 while the alert of the rule for the sensor is firing, else 0 (pending counts as 0).
                # TYPE sensorwatch_alert_firing gauge
                sensorwatch_alert_firing{rule="cpu-hot",sensor="thermal:thermal_zone0",severity="warning"} 1
                sensorwatch_alert_firing{rule="cpu-hot",sensor="thermal:thermal_zone1",severity="warning"} 0
                sensorwatch_alert_firing{rule="dry-air",sensor="hwmon:sht3x/humidity1",severity="notice"} 0
                # HELP sensorwatch_alert_events_total Alert events (firing, resolved, repeat) the rule has sent since the daemon started.
                # TYPE sensorwatch_alert_events_total counter
                sensorwatch_alert_events_total{rule="cpu-hot",event="firing"} 1
                sensorwatch_alert_events_total{rule="cpu-hot",event="resolved"} 0
                sensorwatch_alert_events_total{rule="cpu-hot",event="repeat"} 2
                sensorwatch_alert_events_total{rule="dry-air",event="firing"} 0
                sensorwatch_alert_events_total{rule="dry-air",event="resolved"} 0
                sensorwatch_alert_events_total{rule="dry-air",event="repeat"} 0

                """#)
    }

    /// The two families every file starts with, of version 1.2 started at 0.5.
    static let head = """
        # HELP sensorwatch_build_info Always 1; the version label is sensorwatch's version.
        # TYPE sensorwatch_build_info gauge
        sensorwatch_build_info{version="1.2"} 1
        # HELP sensorwatch_start_time_seconds Unix time the sensorwatch daemon started.
        # TYPE sensorwatch_start_time_seconds gauge
        sensorwatch_start_time_seconds 0.5

        """

    @Test func aDiscreteSensorIsUpAndReadButHasNoValueSeries() {
        let snapshot = MetricsSnapshot(
            version: "1.2", startTime: 0.5,
            sensors: [
                .init(
                    info: SensorInfo(id: "ipmi:bmc-r1-01/PSU1_Status", label: "PSU1 Status", quantity: .state),
                    up: true, value: 3,
                    lastReading: 10)
            ])
        #expect(
            PrometheusExposition.render(snapshot) == Self.head + """
                # HELP sensorwatch_sensor_up 1 if the latest read of the sensor succeeded, else 0.
                # TYPE sensorwatch_sensor_up gauge
                sensorwatch_sensor_up{sensor="ipmi:bmc-r1-01/PSU1_Status",quantity="state"} 1
                # HELP sensorwatch_sensor_last_reading_timestamp_seconds Unix time of the latest successful read of the sensor.
                # TYPE sensorwatch_sensor_last_reading_timestamp_seconds gauge
                sensorwatch_sensor_last_reading_timestamp_seconds{sensor="ipmi:bmc-r1-01/PSU1_Status"} 10

                """)
    }

    /// No sensors, no rules: only the families that have a sample (an empty family is noise).
    @Test func emptySnapshotHasOnlyBuildInfoAndStartTime() {
        #expect(PrometheusExposition.render(MetricsSnapshot(version: "1.2", startTime: 0.5)) == Self.head)
    }

    @Test(arguments: [
        ("plain", "plain"), ("back\\slash", "back\\\\slash"), ("\"q\"", "\\\"q\\\""), ("a\nb", "a\\nb"),
        ("°C ünïcode", "°C ünïcode"),
    ])
    func escapesLabelValuesAsTheFormatSays(raw: String, escaped: String) {
        #expect(PrometheusExposition.escape(raw) == escaped)
    }

    @Test func numbersAreSpelledAsPrometheusParsesThem() {
        #expect(PrometheusExposition.number(47) == "47")
        #expect(PrometheusExposition.number(-0.5) == "-0.5")
        #expect(PrometheusExposition.number(23.125) == "23.125")
        #expect(PrometheusExposition.number(.infinity) == "+Inf")
        #expect(PrometheusExposition.number(-.infinity) == "-Inf")
        #expect(PrometheusExposition.number(.nan) == "NaN")
        #expect(PrometheusExposition.number(1e20) == "1e+20")
    }

    /// Values in fixed point where six decimals hold them exactly, else the shortest form
    /// that reads back as the same double.
    @Test(arguments: [
        (47.0, "47"), (23.125, "23.125"), (-0.5, "-0.5"), (0.41253, "0.41253"), (-12.000001, "-12.000001"),
        (101325.0, "101325"), (1e-7, "1e-07"), (0.1 + 0.2, "0.30000000000000004"), (1e12, "1000000000000"),
    ])
    func valuesAreSpelledExactly(value: Double, text: String) {
        let out = RenderBuffer(capacity: 1)
        PrometheusRenderer.appendNumber(out, value)
        #expect(String(decoding: out.bytes, as: UTF8.self) == text)
        #expect(Double(text) == value)
    }

    /// The renderer keeps per-list text between renders; a changed list, order or value
    /// must still come out exactly as a fresh render.
    @Test func aReusedRendererMatchesAFreshOneAsListsAndValuesChange() {
        let renderer = PrometheusRenderer()
        var snapshot = Self.snapshot
        func same() -> Bool {
            String(decoding: renderer.render(snapshot), as: UTF8.self) == PrometheusExposition.render(snapshot)
        }
        #expect(same())
        snapshot.groups[0].value[0] = 990.5
        snapshot.groups[0].up[2] = true
        snapshot.alerts.entries[1].firing = false
        #expect(same())
        var rows = snapshot.sensorRows
        var alerts = snapshot.alertRows
        rows.swapAt(0, 3)
        alerts.removeLast()
        snapshot = MetricsSnapshot(version: "v", startTime: 1, sensors: rows, alerts: alerts, events: snapshot.events)
        #expect(same())
        rows[1].info.label = "renamed"
        alerts[0].severity = .critical
        snapshot = MetricsSnapshot(version: "v", startTime: 1, sensors: rows, alerts: alerts, events: snapshot.events)
        #expect(same())
        snapshot.groups[0].attempted[0] = false
        #expect(same())
        snapshot.groups[0].sensors.append(SensorInfo(id: "iio:x/pressure", quantity: .pressure))
        for a in [\MetricsSnapshot.SensorGroup.value, \.lastReading] { snapshot.groups[0][keyPath: a].append(5) }
        snapshot.groups[0].up.append(true)
        snapshot.groups[0].attempted.append(true)
        #expect(same())
        snapshot.groups.removeAll()
        #expect(same())
        #expect(!String(decoding: renderer.render(snapshot), as: UTF8.self).contains("sensor_up"))
    }

    /// Values that keep their length are overwritten in place, others lay the text out
    /// again, and a sensor that gains or loses its reading changes the layout: each must
    /// come out exactly as a fresh render, also after the renders between.
    @Test func valuesThatChangeLengthOrAppearMatchAFreshRender() {
        let renderer = PrometheusRenderer()
        var snapshot = Self.snapshot
        func same() -> Bool {
            String(decoding: renderer.render(snapshot), as: UTF8.self) == PrometheusExposition.render(snapshot)
        }
        #expect(same())
        #expect(same())  // unchanged: nothing to patch
        snapshot.groups[0].lastReading[0] += 0.125  // same length
        snapshot.groups[0].value[2] = 48
        #expect(same())
        snapshot.groups[0].lastReading[0] = 1_764_583_467  // shorter
        snapshot.groups[0].lastReading[1] = 1_764_583_467
        snapshot.groups[0].value[2] = -47.25  // longer
        #expect(same())
        snapshot.events[5].count = 10  // longer
        snapshot.startTime = 1_764_583_200.5
        #expect(same())
        snapshot.groups[0].value[3] = 20  // thermal_zone1 gains a value and a reading
        snapshot.groups[0].lastReading[3] = 1_764_583_468
        #expect(same())
        snapshot.groups[0].value[1] = .nan  // and another one loses them
        snapshot.groups[0].lastReading[1] = .nan
        #expect(same())
        snapshot.groups[0].value[0] = .infinity
        #expect(same())
        snapshot.version = "0.2.0"
        #expect(same())
    }

    /// Ratios are divided: 41.3 × 0.01 would print 0.41300000000000003.
    @Test func humidityIsDividedNotMultiplied() {
        let snapshot = MetricsSnapshot(
            version: "v", startTime: 0,
            sensors: [.init(info: SensorInfo(id: "h", quantity: .humidity), up: true, value: 41.3, lastReading: 1)])
        #expect(
            PrometheusExposition.render(snapshot).contains(
                "sensorwatch_humidity_ratio{sensor=\"h\",label=\"\"} 0.413\n"))
    }
}

/// Limits as metrics (SPEC §12, §16): one series per plausible limit, ignored ones left out.
struct PrometheusLimitTests {
    @Test func plausibleLimitsAreOneSeriesEachAfterTheValues() {
        let limits = SensorLimits(
            values: ["crit": 84.85, "max": 81.85, "crit_hyst": 80],
            ignored: ["min": "-273.15 °C is not a plausible limit"])
        let snapshot = MetricsSnapshot(
            version: "0.1.0", startTime: 1_764_583_200,
            sensors: [
                .init(
                    info: SensorInfo(
                        id: "hwmon:nvme/temp1", label: "Composite", quantity: .temperature, limits: limits),
                    up: true, value: 38.85, lastReading: 1_764_583_466),
                .init(
                    info: SensorInfo(
                        id: "hwmon:nvme/temp2", quantity: .temperature,
                        limits: SensorLimits(ignored: ["max": "65261.85 °C is not a plausible limit"])),
                    up: true, value: 40, lastReading: 1_764_583_466),
            ],
            alerts: [], events: [])
        let text = PrometheusExposition.render(snapshot)
        #expect(
            text.hasSuffix(
                #"""
                sensorwatch_temperature_celsius{sensor="hwmon:nvme/temp2",label=""} 40
                # HELP sensorwatch_temperature_limit_celsius The sensor's plausible limits in degrees Celsius, as its driver declares them (max, crit, crit_hyst, ...).
                # TYPE sensorwatch_temperature_limit_celsius gauge
                sensorwatch_temperature_limit_celsius{sensor="hwmon:nvme/temp1",limit="max"} 81.85
                sensorwatch_temperature_limit_celsius{sensor="hwmon:nvme/temp1",limit="crit"} 84.85
                sensorwatch_temperature_limit_celsius{sensor="hwmon:nvme/temp1",limit="crit_hyst"} 80

                """#))
        // Rendered again with new values, the limits stay where they were.
        let renderer = PrometheusRenderer()
        _ = renderer.render(snapshot)
        var later = snapshot
        later.groups[0].value[0] = 39.5
        #expect(String(decoding: renderer.render(later), as: UTF8.self) == PrometheusExposition.render(later))
    }

    /// SPEC §16a: fans, rails, power and current each have their family in their unit, and
    /// their limits a family of their own.
    @Test func fansVoltagesPowerAndCurrentHaveTheirFamiliesAndLimits() {
        let snapshot = MetricsSnapshot(
            version: "0.1.0", startTime: 1_764_583_200,
            sensors: [
                .init(
                    info: SensorInfo(
                        id: "hwmon:nct6798/fan2", quantity: .fan, limits: SensorLimits(values: ["min": 300])),
                    up: true, value: 1200, lastReading: 1_764_583_466),
                .init(
                    info: SensorInfo(
                        id: "hwmon:nct6798/in0", quantity: .voltage, limits: SensorLimits(values: ["max": 1.3])),
                    up: true, value: 1.2, lastReading: 1_764_583_466),
                .init(
                    info: SensorInfo(
                        id: "hwmon:amdgpu/power1", quantity: .power, limits: SensorLimits(values: ["cap": 220])),
                    up: true, value: 35.5, lastReading: 1_764_583_466),
                .init(
                    info: SensorInfo(
                        id: "hwmon:ina3221/curr1", quantity: .current, limits: SensorLimits(values: ["crit": 2])),
                    up: true, value: 0.75, lastReading: 1_764_583_466),
            ],
            alerts: [], events: [])
        let lines = Set(PrometheusExposition.render(snapshot).split(separator: "\n").map(String.init))
        for line in [
            #"sensorwatch_fan_speed_rpm{sensor="hwmon:nct6798/fan2",label=""} 1200"#,
            #"sensorwatch_fan_limit_rpm{sensor="hwmon:nct6798/fan2",limit="min"} 300"#,
            #"sensorwatch_voltage_volts{sensor="hwmon:nct6798/in0",label=""} 1.2"#,
            #"sensorwatch_voltage_limit_volts{sensor="hwmon:nct6798/in0",limit="max"} 1.3"#,
            #"sensorwatch_power_watts{sensor="hwmon:amdgpu/power1",label=""} 35.5"#,
            #"sensorwatch_power_limit_watts{sensor="hwmon:amdgpu/power1",limit="cap"} 220"#,
            #"sensorwatch_current_amperes{sensor="hwmon:ina3221/curr1",label=""} 0.75"#,
            #"sensorwatch_current_limit_amperes{sensor="hwmon:ina3221/curr1",limit="crit"} 2"#,
        ] {
            #expect(lines.contains(line), "\(line)")
        }
    }
}
