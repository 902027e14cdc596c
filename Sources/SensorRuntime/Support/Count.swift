/// A count with its noun, singular or plural as English has it: `1 source`, `2 sources`.
///
/// The one way outputs count things for a person, so none says `1 sources`.
public enum Count {
    /// `n` and `noun`, with an `s` unless `n` is 1 (or `plural` where the noun is irregular).
    public static func of(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }
}
