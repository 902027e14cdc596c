/// A width estimate for text in the plot's sans-serif font, for placing labels without
/// a font engine: wide enough for DejaVu Sans (librsvg's usual fallback), so estimated
/// boxes never undercount and labels never overlap.
enum TextMetrics {
    /// The estimated width of `text` at `fontSize`, in pixels.
    static func width(_ text: String, fontSize: Double) -> Double {
        var em = 0.0
        for c in text {
            switch c {
            case "i", "l", "j", "I", ".", ",", ":", ";", "'", "|", "!", " ", "(", ")", "[", "]", "f", "t", "r":
                em += 0.36
            case "m", "w", "M", "W", "%", "@":
                em += 0.9
            default:
                em += c.isUppercase ? 0.7 : 0.62
            }
        }
        return em * fontSize
    }
}
