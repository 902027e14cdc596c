/// What a rule tells the person who is paged (SPEC §21): a `summary`, a `description` and a
/// `runbook` URL, each optional. They change no evaluation; they ride along on the rule's
/// events into the journal, `exec` targets and Alertmanager.
public struct RuleAnnotations: Hashable, Sendable {
    /// A one-line summary; Alertmanager's `summary` (the message when unset).
    public var summary: String?
    /// What the alert means and what to look at first.
    public var description: String?
    /// Where the steps to take are written down (Alertmanager's `runbook_url`).
    public var runbook: String?

    /// Annotations of a rule; every one left out is nil.
    public init(summary: String? = nil, description: String? = nil, runbook: String? = nil) {
        self.summary = summary
        self.description = description
        self.runbook = runbook
    }

    /// Whether the rule has none.
    public var isEmpty: Bool { summary == nil && description == nil && runbook == nil }

    /// The rule keys, in their documented order; the journal, JSON and environment spell
    /// them in their own case.
    public static let names = ["summary", "description", "runbook"]

    /// The annotation of that key (one of ``names``), nil when unset.
    public func value(_ name: String) -> String? {
        switch name {
        case "summary": return summary
        case "description": return description
        case "runbook": return runbook
        default: return nil
        }
    }

    /// The set ones as `(name, value)`, in the order of ``names``.
    public var present: [(name: String, value: String)] {
        Self.names.compactMap { name in value(name).map { (name, $0) } }
    }
}
