import Testing
import SkillGateCore
import SkillGateProviders
@testable import SkillGateServer

/// An upstream call's client keeps the provider's keys to tell their version after a refusal (decision 0115): printing
/// or reflecting it never shows a secret, and the version tells secrets apart.
@Suite struct UpstreamClientTests {
    static let secret = "sk-test-secret-0123456789abcdef"

    @Test func printingTheClientShowsNoSecret() {
        let client = UpstreamClient(DemoModelClient(), keys: [(name: "OPENAI_API_KEY", secret: Self.secret)])
        for text in [String(describing: client), String(reflecting: client), "\(Mirror(reflecting: client).children.map { "\($0.value)" })"] {
            #expect(!text.contains(Self.secret) && !text.contains("0123456789abcdef"), "\(text)")
        }
        #expect(String(describing: client).contains("1 key(s), secrets redacted"))
    }

    @Test func theVersionTellsSecretsApart() {
        let a = UpstreamClient(DemoModelClient(), keys: [(name: "K", secret: Self.secret)]).keyVersion
        let same = UpstreamClient(DemoModelClient(), keys: [(name: "K", secret: Self.secret)]).keyVersion
        let other = UpstreamClient(DemoModelClient(), keys: [(name: "K", secret: Self.secret + "x")]).keyVersion
        #expect(a != nil && a == same && a != other)
        #expect(UpstreamClient(DemoModelClient()).keyVersion == nil)
    }
}
