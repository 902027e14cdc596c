import SensorCore
import SensorRuntime

/// One entry of the configuration's `notify` list: where alert events go, which ones, and
/// how long one delivery may take (SPEC §17).
public struct NotifyTarget: Sendable, Hashable {
    /// The default of `timeout`.
    public static let defaultTimeout: Duration = .seconds(30)
    /// The default of `giveUp`.
    public static let defaultGiveUp: Duration = .seconds(24 * 3600)

    /// Where events go.
    public enum Kind: Sendable, Hashable {
        /// A program and its arguments, started without a shell for each event.
        case exec([String])
        /// The base URL of an Alertmanager (API v2), without a trailing slash.
        case alertmanager(String)
    }

    /// Where events go.
    public var kind: Kind
    /// Which events it takes.
    public var filter: NotifyFilter
    /// How long one delivery may take before it counts as a failure to retry.
    public var timeout: Duration
    /// How long after its first attempt an event still not delivered is given up (logged
    /// as undeliverable and skipped).
    public var giveUp: Duration

    /// A target of the given fields; by default it takes every event.
    public init(
        kind: Kind, filter: NotifyFilter = NotifyFilter(), timeout: Duration = NotifyTarget.defaultTimeout,
        giveUp: Duration = NotifyTarget.defaultGiveUp
    ) {
        self.kind = kind
        self.filter = filter
        self.timeout = timeout
        self.giveUp = giveUp
    }

    /// The target's identity in `notify.json`: its kind, destination and filters (not the
    /// timeout nor `giveUp`, which do not change which events it has had). A changed definition
    /// is a new target, which starts at the end of the journal. A URL's password is masked: the
    /// file must not hold it, and a changed password is the same target.
    public var key: String { key(url: \.shown) }

    /// The key as versions before the masking wrote it (the URL with its password), where it
    /// differs from ``key``: a kept cursor under it is taken over, not lost.
    public var keyWithPassword: String? {
        let old = key(url: \.text)
        return old == key ? nil : old
    }

    private func key(url form: KeyPath<CredentialedURL, String>) -> String {
        let head: String =
            switch kind {
            case .exec(let argv): "exec " + argv.map(JSONWriter.string).joined(separator: " ")
            case .alertmanager(let url): "alertmanager " + CredentialedURL(url)[keyPath: form]
            }
        return ([head] + filter.words).joined(separator: " ")
    }

    /// How the target is named in logs and in `--test`'s output: `exec /usr/local/bin/page-me`,
    /// `alertmanager http://127.0.0.1:9093`, `alertmanager http://user:***@127.0.0.1:9093`.
    public var name: String {
        switch kind {
        case .exec(let argv): "exec " + (argv.first ?? "")
        case .alertmanager(let url): "alertmanager " + CredentialedURL(url).shown
        }
    }
}
