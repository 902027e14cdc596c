extension String {
    /// The text with each scalar that `replacement` gives a text for replaced by that text:
    /// the one loop of the escapers (a terminal's, JSON's, XML's, Prometheus label values').
    public func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = String.UnicodeScalarView()
        for u in unicodeScalars {
            if let text = replacement(u) {
                out.append(contentsOf: text.unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }
}
