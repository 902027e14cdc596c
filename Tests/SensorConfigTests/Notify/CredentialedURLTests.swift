@testable import SensorConfig
import Testing

/// A URL's user information: sent as basic authentication, shown with the password masked
/// (SPEC §17 Secrets).
struct CredentialedURLTests {
    @Test func splitsUserInformationFromTheAddressAndMasksThePassword() {
        let url = CredentialedURL("https://am:s3cret@alerts.example:9093/prefix")
        #expect(url.address == "https://alerts.example:9093/prefix")
        #expect(url.user == "am")
        #expect(url.password == "s3cret")
        #expect(url.shown == "https://am:***@alerts.example:9093/prefix")
        #expect(!url.hasStrayAt)
    }

    /// What is sent is decoded (`%40` is `@`); an unescaped `@` in the password is taken up
    /// to the last `@` of the authority, as a host never holds one.
    @Test func decodesPercentEscapesAndTakesTheLastAt() {
        let escaped = CredentialedURL("http://a%20b:p%40ss%zz@h:1")
        #expect(escaped.user == "a b")
        #expect(escaped.password == "p@ss%zz")
        #expect(escaped.shown == "http://a%20b:***@h:1")
        let bare = CredentialedURL("http://u:p@ss@h:1")
        #expect(bare.password == "p@ss")
        #expect(bare.address == "http://h:1")
        #expect(bare.shown == "http://u:***@h:1")
    }

    @Test func aURLWithoutUserInformationIsTheSameInEveryForm() {
        for text in ["http://127.0.0.1:9093", "http://h/path?q=a@b", "not a url"] {
            let url = CredentialedURL(text)
            #expect(url.address == text)
            #expect(url.shown == text)
            #expect(url.user == nil)
            #expect(url.password == nil)
        }
        #expect(CredentialedURL("http://h/path?q=a@b").hasStrayAt)
    }

    /// A user name alone is no secret: shown as it is, sent with an empty password.
    @Test func aUserWithoutPasswordIsShownAndSent() {
        let url = CredentialedURL("http://am@h:9093")
        #expect(url.user == "am")
        #expect(url.password == nil)
        #expect(url.address == "http://h:9093")
        #expect(url.shown == "http://am@h:9093")
    }

    /// A password holding `/` unescaped ends the authority early; the decoder refuses such
    /// a URL (``hasStrayAt``) instead of sending the rest of the password as a path.
    @Test func anUnescapedSlashInThePasswordIsNoticed() {
        #expect(CredentialedURL("http://am:pa/ss@h:9093").hasStrayAt)
    }
}
