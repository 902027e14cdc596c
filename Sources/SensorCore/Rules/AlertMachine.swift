public import SensorRuntime

/// The rule semantics of SPEC §5 as a pure function: `(state, input) -> (state, events)`.
///
/// No I/O, no clock: the input carries its time. The rule engine runs one of these per
/// (rule, sensor) pair.
public enum AlertMachine {
    /// The sensor's device went (SPEC §20): a firing alert resolves without a value, saying
    /// so, and the alert starts afresh — when the sensor comes back, `stale` counts from then,
    /// not from its last reading before it went.
    public static func gone(
        _ state: inout AlertState, time: Timestamp, rule: Rule, index: Int, sensor: SensorInfo,
        into events: inout [AlertEvent]
    ) {
        let wasFiring = state.isFiring
        let last = state
        state = AlertState(condition: rule.condition, start: time)
        guard wasFiring else { return }
        var e = event(
            .resolved, state: last, time: time, value: nil, predicted: nil, rule: rule, index: index, sensor: sensor)
        e.sensorGone = true
        events.append(e)
    }

    /// The event of `kind` for `rule`'s alert of `sensor` at `time`.
    private static func event(
        _ kind: EventKind, state: AlertState, time: Timestamp, value: Double?, predicted: Double?,
        rule: borrowing Rule, index: Int, sensor: SensorInfo
    ) -> AlertEvent {
        var predict: PredictCondition?
        if case .predict(let p) = rule.condition { predict = p }
        let threshold = rule.threshold(seen: state)
        return AlertEvent(
            time: time, kind: kind, rule: rule.name, ruleIndex: index, sensor: sensor,
            severity: rule.severity, value: value, threshold: threshold.value,
            condition: threshold.condition, predict: predict, predicted: predicted,
            isLimitRule: rule.limit != nil || rule.condition == .alarm, limit: threshold.limit,
            within: threshold.within, annotations: rule.annotations)
    }

    /// Whether `alarms` holds the alarm of `limit` (a limit rule's, as resolved for its sensor).
    private static func latches(_ alarms: HardwareAlarms, _ limit: String?) -> Bool {
        guard let limit, let alarm = HardwareAlarms(name: limit) else { return false }
        return alarms.contains(alarm)
    }

    /// What a step reads of its rule at every sample: the condition, and the waits in
    /// nanoseconds (`Duration` is 128-bit, and its nanoseconds a division). The rule engine
    /// keeps one per rule; the rest of the rule (name, selector, annotations: 288 bytes in
    /// all) is read only to make an event. Handed to each step whole, the rule was copied
    /// onto the stack at every sample (bench/README.md).
    public struct Parameters: Sendable {
        let condition: Condition
        let holdFor: Int64
        let clearFor: Int64
        let repeatEvery: Int64?

        /// The parameters of `rule`.
        public init(_ rule: Rule) {
            condition = rule.condition
            holdFor = rule.holdFor.nanoseconds
            clearFor = rule.clearFor.nanoseconds
            repeatEvery = rule.repeatEvery?.nanoseconds
        }
    }

    /// Evaluates one read attempt or source tick and appends the events it causes (at most
    /// two: a `repeat` can only follow an earlier firing, so in practice zero or one).
    ///
    /// `value` nil is a failed read or a tick, which only `stale` evaluates (it treats both
    /// alike); `alarms` are the alarm files set at that reading (SPEC §16b). `parameters` are
    /// `rule`'s, and `rule` is read only when the step makes an event (or a chip's alarm is set):
    /// this is the rule engine's hot path.
    @inline(__always)
    static func step(
        _ state: inout AlertState, time: Timestamp, value: Double?, alarms: HardwareAlarms, parameters p: Parameters,
        rule: @autoclosure () -> Rule, index: Int, sensor: @autoclosure () -> SensorInfo,
        into events: inout [AlertEvent]
    ) {
        // 1. Decide whether this input is an evaluation, and update the condition.
        var predicted: Double?
        // A limit rule's condition also holds while the chip latches that limit's alarm, and
        // the event then says so when the value alone would not have made it.
        var latched = false
        switch p.condition {
        case .above(let threshold, let hysteresis):
            guard let v = value else { return }
            let byValue = state.conditionTrue ? v > threshold - hysteresis : v > threshold
            latched = !byValue && !alarms.isEmpty && latches(alarms, rule().appliedLimit)
            state.conditionTrue = byValue || latched
        case .below(let threshold, let hysteresis):
            guard let v = value else { return }
            let byValue = state.conditionTrue ? v < threshold + hysteresis : v < threshold
            latched = !byValue && !alarms.isEmpty && latches(alarms, rule().appliedLimit)
            state.conditionTrue = byValue || latched
        case .alarm:
            guard value != nil else { return }
            state.conditionTrue = !alarms.isEmpty
            if !alarms.isEmpty { state.alarmsSeen = alarms }
        case .rise(let by, _):
            guard let v = value else { return }
            let low = state.window!.push(v, at: time)
            state.conditionTrue = v - low >= by
        case .fall(let by, _):
            guard let v = value else { return }
            let high = state.window!.push(v, at: time)
            state.conditionTrue = high - v >= by
        case .predict(let p):
            guard let v = value else { return }
            predicted = state.trend!.push(v, at: time)
            if state.awaitingLine {
                // Restored as firing with an empty window: no verdict until there is a line.
                guard predicted != nil else { return }
                state.awaitingLine = false
            }
            state.conditionTrue = p.isTrue(predicted: predicted, wasTrue: state.conditionTrue)
        case .stale(let limit):
            if value != nil {
                state.lastSuccess = time
                state.conditionTrue = false
            } else {
                state.conditionTrue = time - state.lastSuccess >= limit
            }
        }

        // 2. Move the alert along ok → pending → firing → ok. An event is made out of line
        // (`emit`): a nested function capturing the rule here made every step copy the
        // rule's fields, event or not (bench/README.md).
        let cond = state.conditionTrue
        switch state.phase {
        case .ok:
            guard cond else { return }
            if p.holdFor <= 0 {
                state.phase = .firing(since: time, clearing: nil, lastSent: time)
                emit(.firing, state, time, value, predicted, latched, rule(), index, sensor(), &events)
            } else {
                state.phase = .pending(since: time)
            }
        case .pending(let since):
            if !cond {
                state.phase = .ok
            } else if time.nanoseconds >= since.nanoseconds &+ p.holdFor {
                state.phase = .firing(since: time, clearing: nil, lastSent: time)
                emit(.firing, state, time, value, predicted, latched, rule(), index, sensor(), &events)
            }
        case .firing(let since, var clearing, var lastSent):
            if cond {
                clearing = nil
            } else {
                let first = clearing ?? time
                if time.nanoseconds >= first.nanoseconds &+ p.clearFor {
                    state.phase = .ok
                    emit(.resolved, state, time, value, predicted, latched, rule(), index, sensor(), &events)
                    return
                }
                clearing = first
            }
            if let every = p.repeatEvery, time.nanoseconds >= lastSent.nanoseconds &+ every {
                lastSent = time
                emit(.repeat, state, time, value, predicted, latched, rule(), index, sensor(), &events)
            }
            state.phase = .firing(since: since, clearing: clearing, lastSent: lastSent)
        }
    }

    /// Appends the event of `kind` that a step at `time` caused; `latched`: the chip's alarm,
    /// not the value, made the condition true.
    @inline(never)
    private static func emit(
        _ kind: EventKind, _ state: AlertState, _ time: Timestamp, _ value: Double?, _ predicted: Double?,
        _ latched: Bool, _ rule: borrowing Rule, _ index: Int, _ sensor: SensorInfo, _ events: inout [AlertEvent]
    ) {
        var e = event(
            kind, state: state, time: time, value: value, predicted: predicted, rule: rule, index: index, sensor: sensor
        )
        e.hardwareAlarm = latched && kind != .resolved
        events.append(e)
    }
}
