@testable import SensorRuntime
import Testing

/// The one JSON writer's layouts and number forms.
struct JSONWriterTests {
    /// The member-by-member writer of event lines writes what the tree writer writes for
    /// the same members: the same escapes, numbers and nulls.
    @Test func anObjectWrittenMemberByMemberIsTheTreesText() {
        var o = JSONWriter.ObjectWriter()
        o.numberText("time", "12.0")
        o.string("rule", "q\"\u{1b}[2J\n")
        o.string("limit", nil)
        o.number("value", 81.5)
        o.number("threshold", nil)
        o.number("nan", .nan)
        o.bool("alarm", true)
        let tree = JSONWriter.text(
            .object(
                JSONObject([
                    .init(key: "time", value: .numberText("12.0")), .string("rule", "q\"\u{1b}[2J\n"),
                    .optionalString("limit", nil), .number("value", 81.5), .number("threshold", nil),
                    .number("nan", .nan), .init(key: "alarm", value: .bool(true)),
                ])))
        #expect(o.text == tree)
        #expect(
            o.text
                == #"{"time":12.0,"rule":"q\"\u001b[2J\n","limit":null,"value":81.5,"threshold":null,"nan":null,"alarm":true}"#
        )
        #expect(JSONWriter.ObjectWriter().text == "{}")
    }

    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }

    static let sensor = object([
        ("id", .string("a")), ("limits", object([("max", .integer(80))])), ("alarms", .array([.string("crit")])),
    ])

    @Test func linesPutsEachElementDownToTheDepthOnALineOfItsOwn() {
        #expect(
            JSONWriter.text(.array([Self.sensor, Self.sensor]), layout: .lines(depth: 1))
                == "[\n  {\"id\":\"a\",\"limits\":{\"max\":80},\"alarms\":[\"crit\"]},\n  "
                + "{\"id\":\"a\",\"limits\":{\"max\":80},\"alarms\":[\"crit\"]}\n]")
    }

    @Test func linesWritesAnEmptyContainerOnOneLine() {
        #expect(JSONWriter.text(.array([]), layout: .lines(depth: 1)) == "[]")
        #expect(JSONWriter.text(Self.object([]), layout: .lines(depth: 2, spaced: true)) == "{}")
    }

    @Test func spacedLinesWriteKeysAndElementsAsAPersonDoes() {
        let document = Self.object([("loop", .bool(false)), ("sensors", .array([Self.sensor]))])
        #expect(
            JSONWriter.text(document, layout: .lines(depth: 2, spaced: true)) == """
                {
                  "loop": false,
                  "sensors": [
                    {"id": "a", "limits": {"max": 80}, "alarms": ["crit"]}
                  ]
                }
                """)
    }

    @Test func aPackedMemberStartsALineAndHoldsItsElementsPerLine() {
        let pairs = (0..<5).map { JSONValue.array([.integer(Int64($0)), .number(Double($0) + 0.5)]) }
        let document = Self.object([
            ("sensors", .array([Self.object([("id", .string("a")), ("samples", .array(pairs))])]))
        ])
        #expect(
            JSONWriter.text(document, layout: .lines(depth: 2, spaced: true, packed: "samples", perLine: 2)) == """
                {
                  "sensors": [
                    {"id": "a",
                     "samples": [
                       [0, 0.5], [1, 1.5],
                       [2, 2.5], [3, 3.5],
                       [4, 4.5]
                     ]}
                  ]
                }
                """)
    }

    @Test func anEmptyPackedMemberStillStartsALine() {
        let document = Self.object([("id", .string("a")), ("samples", .array([]))])
        #expect(
            JSONWriter.text(document, layout: .lines(depth: 0, spaced: true, packed: "samples", perLine: 10))
                == "{\"id\": \"a\",\n \"samples\": []}")
    }

    @Test func aNumberTextIsWrittenAsItIs() {
        let document = Self.object([("time", .numberText("12.0")), ("at", .numberText("3.000000001"))])
        #expect(JSONWriter.text(document) == #"{"time":12.0,"at":3.000000001}"#)
        #expect(JSONValue.numberText("1").kindDescription == "a number")
    }

    @Test func compactPrettyAndRecordsAreUnchanged() {
        #expect(JSONWriter.text(Self.sensor) == #"{"id":"a","limits":{"max":80},"alarms":["crit"]}"#)
        #expect(
            JSONWriter.text(Self.sensor, layout: .pretty)
                == "{\n  \"id\" : \"a\",\n  \"limits\" : {\n    \"max\" : 80\n  },\n  \"alarms\" : [\n    \"crit\"\n  ]\n}"
        )
        #expect(
            JSONWriter.text(Self.sensor, layout: .records(depth: 1))
                == "{\"id\":\"a\",\n\"limits\":{\"max\":80},\n\"alarms\":[\"crit\"]}")
    }
}
