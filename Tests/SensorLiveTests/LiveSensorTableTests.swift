import SensorCore
@testable import SensorLive
import SensorRuntime
import Testing

@DaemonActor
@Suite struct LiveSensorTableTests {
    let infos = (0..<1000).map { SensorInfo(id: SensorID("sim:s\($0)"), quantity: .temperature) }

    func cycle(_ list: SensorList, at seconds: Double, _ values: [Double]) -> PollCycle {
        PollCycle(list: list, readings: SensorValues(time: .seconds(seconds), values: values))
    }

    @Test func ofAThousandSensorsOneMovedIsOneChange() {
        let data = SensorData()
        let list = SensorList(source: "sim", sensors: infos)
        var values = Array(repeating: 20.0, count: 1000)
        data.commit(cycle(list, at: 1, values))
        var table = LiveSensorTable(started: 1000)
        let first = table.update(data.readings, faulty: data.faulty)
        #expect(first.appeared.count == 1000)
        // A new sample of the same value is not a change.
        data.commit(cycle(list, at: 2, values))
        #expect(table.update(data.readings, faulty: data.faulty).isEmpty)
        values[500] = 21.5
        data.commit(cycle(list, at: 3, values))
        #expect(table.update(data.readings, faulty: data.faulty) == LiveSensorTable.Delta(changed: ["sim:s500"]))
        #expect(table.sensor("sim:s500")?.value == 21.5)
        #expect(table.sensor("sim:s500")?.time == 1003)
        // Samples 1 s apart: 1, 2 and 3 are in the bucket of 1000 s (1000-1004).
        #expect(table.history("sim:s500", now: 1003) == [LiveBucket(time: 1000, min: 20, max: 21.5, last: 21.5)])
    }

    @Test func aRediscoveryKeepsStateAndSaysWhatAppearedAndWent() {
        let data = SensorData()
        let a = SensorInfo(id: "sim:a", quantity: .temperature)
        let b = SensorInfo(id: "sim:b", quantity: .temperature)
        var c = SensorInfo(id: "sim:c", quantity: .temperature)
        let first = SensorList(source: "sim", sensors: [a, b, c])
        data.commit(cycle(first, at: 1, [1, 2, 3]))
        var table = LiveSensorTable(started: 0)
        _ = table.update(data.readings, faulty: data.faulty)
        c.limits = SensorLimits(values: ["crit": 90])
        let d = SensorInfo(id: "sim:d", quantity: .temperature)
        let second = SensorList(source: "sim", sensors: [a, c, d])
        data.commit(cycle(second, at: 2, [1, 3, 4]))
        let delta = table.update(data.readings, faulty: data.faulty)
        #expect(delta.gone == ["sim:b"])
        #expect(delta.appeared == ["sim:d"])
        #expect(Set(delta.changed) == ["sim:c", "sim:d"])
        #expect(table.sensor("sim:c")?.limits == ["crit": 90])
        #expect(table.sensor("sim:b") == nil)
        #expect(table.history("sim:a", now: 2).map(\.last) == [1])
    }

    @Test func aDiscreteSensorIsItsStatesWordsAndNewWordsAreAChange() {
        let data = SensorData()
        let psu = SensorInfo(id: "ipmi:bmc/PSU1_Status", label: "PSU1 Status", quantity: .state)
        let list = SensorList(source: "ipmi:bmc", sensors: [psu])
        func poll(at seconds: Double, bits: Double, _ words: [String]) {
            var v = SensorValues(time: .seconds(seconds), capacity: 1)
            v.append(stateBits: bits, words: words, alarms: [])
            data.commit(PollCycle(list: list, readings: v))
        }
        poll(at: 1, bits: 1, ["Presence detected"])
        var table = LiveSensorTable(started: 0)
        _ = table.update(data.readings, faulty: data.faulty)
        #expect(table.sensor("ipmi:bmc/PSU1_Status")?.value == nil)
        #expect(table.sensor("ipmi:bmc/PSU1_Status")?.state == ["Presence detected"])
        #expect(table.sensor("ipmi:bmc/PSU1_Status")?.time == 1)
        poll(at: 2, bits: 1, ["Presence detected"])
        #expect(table.update(data.readings, faulty: data.faulty).isEmpty)
        poll(at: 3, bits: 3, ["Presence detected", "Power Supply Failure detected"])
        #expect(
            table.update(data.readings, faulty: data.faulty) == LiveSensorTable.Delta(changed: ["ipmi:bmc/PSU1_Status"])
        )
        #expect(table.sensor("ipmi:bmc/PSU1_Status")?.state == ["Presence detected", "Power Supply Failure detected"])
        // On the wire as in status.json, and read back.
        let sensor = try? LiveSensor(json: table.sensor("ipmi:bmc/PSU1_Status")!.json, path: "s")
        #expect(sensor?.state == ["Presence detected", "Power Supply Failure detected"])
    }

    @Test func healthAndAlarmsAreChanges() {
        let data = SensorData()
        let list = SensorList(source: "sim", sensors: [SensorInfo(id: "sim:a", quantity: .temperature)])
        var table = LiveSensorTable(started: 0)
        _ = table.update(data.readings, faulty: data.faulty)
        data.adopt(list)
        #expect(table.update(data.readings, faulty: data.faulty).appeared == ["sim:a"])
        #expect(table.sensor("sim:a")?.error == "not read yet")
        #expect(table.sensor("sim:a")?.value == nil)
        data.commit(
            PollCycle(list: list, readings: SensorValues(time: .seconds(1), values: [.nan], faults: [0: "EIO"])))
        #expect(table.update(data.readings, faulty: data.faulty).changed == ["sim:a"])
        #expect(table.sensor("sim:a")?.ok == false && table.sensor("sim:a")?.error == "EIO")
        var alarmed = SensorValues(time: .seconds(2), capacity: 1)
        alarmed.append(50, alarms: HardwareAlarms(name: "crit")!)
        data.commit(PollCycle(list: list, readings: alarmed))
        #expect(table.update(data.readings, faulty: data.faulty).changed == ["sim:a"])
        #expect(table.sensor("sim:a")?.alarms == ["crit"] && table.sensor("sim:a")?.ok == true)
        data.remove(source: "sim")
        #expect(table.update(data.readings, faulty: data.faulty).gone == ["sim:a"])
    }
}
