/// The names nearest to one a person typed: the one way "did you mean" is found, for
/// configuration keys, command-line options and sensor ids alike.
///
/// Nearness is the edit distance (Levenshtein), case ignored; a name counts as a typo of
/// another only when few edits apart for its length, so a wholly different word suggests
/// nothing rather than a random name.
public enum NearestNames {
    /// The candidate nearest to `typed`, when it is close enough to be a typo of it.
    public static func closest(to typed: String, in candidates: some Collection<String>) -> String? {
        nearest(to: typed, in: candidates, count: 1).first
    }

    /// Up to `count` candidates close enough to `typed` to be what was meant, nearest
    /// first (ties in the candidates' order).
    public static func nearest(to typed: String, in candidates: some Collection<String>, count: Int) -> [String] {
        let typed = typed.lowercased()
        let scored = candidates.enumerated().map {
            (offset: $0.offset, name: $0.element, edits: editDistance(typed, $0.element.lowercased()))
        }
        .filter { $0.edits <= allowedEdits(for: $0.name) }
        .sorted { ($0.edits, $0.offset) < ($1.edits, $1.offset) }
        return Array(scored.prefix(count).map(\.name))
    }

    /// One edit for a short name, two for a name of six characters or more, more for a long
    /// id (a sensor id's prefix is shared, so its typos are in the rest).
    private static func allowedEdits(for name: String) -> Int { max(1, min(name.count / 3, 2 + name.count / 12)) }

    /// The Levenshtein distance of `a` and `b`, in characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }
}
