import SensorCore
import Testing

@testable import SensorLive

@Suite struct LiveMessageTests {
    // 2026-12-01T22:01:06.250Z
    let t = 1_796_162_466.25

    var sensor: LiveSensor {
        LiveSensor(
            id: "hwmon:coretemp.0/temp1", label: "Package id 0", quantity: "temperature", unit: "°C", value: 45.5,
            time: t,
            ok: true, error: nil, limits: ["crit": 100, "max": 80], alarms: ["max"], asleep: false)
    }

    @Test func helloIsOneGoldenLine() {
        let line = LiveMessage.hello(LiveHello(host: "box", pid: 42, started: t)).line
        #expect(line == #"{"type":"hello","version":1,"host":"box","pid":42,"started":"2026-12-01T22:01:06.250Z"}"#)
    }

    @Test func sensorKeepsStatusFileOrderThenAlarmsAndAsleep() {
        let line = LiveMessage.change(LiveChange(time: t, sensors: [sensor])).line
        #expect(
            line
                == #"{"type":"change","time":"2026-12-01T22:01:06.250Z","sensors":[{"id":"hwmon:coretemp.0/temp1","label":"Package id 0","quantity":"temperature","unit":"°C","value":45.5,"time":"2026-12-01T22:01:06.250Z","ok":true,"error":null,"limits":{"max":80,"crit":100},"alarms":["max"],"asleep":false}]}"#
        )
    }

    @Test func changeLeavesOutWhatDidNotChange() {
        let line = LiveMessage.change(LiveChange(time: t, gone: ["a:b"])).line
        #expect(line == #"{"type":"change","time":"2026-12-01T22:01:06.250Z","gone":["a:b"]}"#)
        let silences = LiveMessage.change(LiveChange(time: t, silences: [])).line
        #expect(silences == #"{"type":"change","time":"2026-12-01T22:01:06.250Z","silences":[]}"#)
    }

    @Test func snapshotGolden() {
        let alert = LiveAlert(
            rule: "hot", sensor: "a:b", severity: "critical", state: .firing, since: t, value: 91, threshold: 90,
            silenced: nil)
        let silence = LiveSilence(id: "s1", rule: "hot", starts: t, ends: t + 3600, by: "root", comment: "fan")
        let snap = LiveSnapshot(
            sensors: [LiveSensor(id: "a:b", quantity: "temperature", unit: "°C", ok: false, error: "not read yet")],
            alerts: [alert], silences: [silence],
            history: ["a:b": [LiveBucket(time: 1_796_162_465, min: 1, max: 2.5, last: 2)]])
        #expect(
            LiveMessage.snapshot(snap).line
                == #"{"type":"snapshot","sensors":[{"id":"a:b","label":"","quantity":"temperature","unit":"°C","value":null,"time":null,"ok":false,"error":"not read yet","limits":null,"alarms":[],"asleep":false}],"alerts":[{"rule":"hot","sensor":"a:b","severity":"critical","state":"firing","since":"2026-12-01T22:01:06.250Z","value":91,"threshold":90,"silenced":null}],"silences":[{"id":"s1","rule":"hot","sensor":null,"host":null,"starts":"2026-12-01T22:01:06.250Z","ends":"2026-12-01T23:01:06.250Z","by":"root","comment":"fan"}],"history":{"a:b":[[1796162465,1,2.5,2]]}}"#
        )
    }

    @Test func errorGolden() {
        #expect(LiveMessage.error("too many clients").line == #"{"type":"error","message":"too many clients"}"#)
    }

    @Test func everyMessageRoundTrips() throws {
        let alert = LiveAlert(
            rule: "hot", sensor: "a:b", severity: "warning", state: .ok, since: t, value: nil, threshold: 90,
            silenced: t + 60)
        let messages: [LiveMessage] = [
            .hello(LiveHello(host: "h\n\u{1b}x", pid: 1, started: t)),
            .snapshot(
                LiveSnapshot(
                    sensors: [sensor, LiveSensor(id: "x", quantity: "humidity", unit: "%", asleep: true)],
                    alerts: [alert],
                    silences: [LiveSilence(id: "s", sensor: "cpu*", host: "h", starts: t, ends: t + 1, by: "me")],
                    history: [sensor.id: [LiveBucket(time: 1_796_162_460, min: -3.25, max: 1e6, last: 0)]])),
            .change(
                LiveChange(
                    time: t, sensors: [sensor], alerts: [alert], silences: [], appeared: [sensor.id], gone: ["y"])),
            .error("bye \"now\""),
        ]
        for m in messages {
            #expect(try LiveMessage.decode(m.line) == m)
            #expect(try LiveMessage.decode(m.line + "\n") == m)
        }
    }

    @Test(arguments: [
        "", "   ", "null", "[]", "{", "{\"type\":1}", "{\"type\":\"nope\"}", "{\"type\":\"hello\"}",
        "{\"type\":\"hello\",\"version\":1e300,\"host\":\"h\",\"pid\":1,\"started\":\"2026-12-01T22:01:06Z\"}",
        "{\"type\":\"change\",\"time\":\"yesterday\"}",
        "{\"type\":\"change\",\"time\":\"2026-12-01T22:01:06Z\",\"sensors\":[1]}",
        "{\"type\":\"change\",\"time\":\"2026-12-01T22:01:06Z\",\"sensors\":[{\"id\":\"a\",\"quantity\":\"t\",\"unit\":\"\",\"ok\":true,\"value\":Infinity}]}",
        "{\"type\":\"snapshot\",\"history\":{\"a\":[[1,2,3]]}}",
        "{\"type\":\"snapshot\",\"history\":{\"a\":[[1.5,2,3,4]]}}",
        "{\"type\":\"snapshot\",\"alerts\":[{\"rule\":\"r\",\"sensor\":\"s\",\"severity\":\"x\",\"state\":\"boiling\",\"since\":\"2026-12-01T22:01:06Z\"}]}",
        "{\"type\":\"error\"}", String(repeating: "[", count: 100_000), "\u{0}\u{ff}",
    ])
    func hostileLinesGiveATypedError(line: String) {
        #expect(throws: LiveProtocolError.self) { try LiveMessage.decode(line) }
    }

    @Test func subscriptionRoundTripsAndRefusesAnythingElse() throws {
        let s = LiveSubscription(sensors: [try Glob("thermal:*"), try Glob("hwmon:nct*/temp?")])
        #expect(s.line == #"{"subscribe":{"sensor":["thermal:*","hwmon:nct*/temp?"]}}"#)
        let back = try LiveSubscription.decode(s.line)
        #expect(back == s)
        #expect(back.includes("thermal:acpitz") && !back.includes("iio:x"))
        for junk in [
            "hello", "{}", #"{"subscribe":{}}"#, #"{"subscribe":{"sensor":"x"}}"#, #"{"subscribe":{"sensor":["[x"]}}"#,
            #"{"subscribe":{"sensor":["x"]},"silence":1}"#, #"{"type":"hello"}"#,
        ] {
            #expect(throws: LiveProtocolError.self) { try LiveSubscription.decode(junk) }
        }
    }
}
