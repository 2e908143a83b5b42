import Testing
import SkillGateHTTP
@testable import SkillGateSkills

/// SSRF refusals happen before any connection: nothing listens on these addresses in the test.
@Suite struct GuardedHTTPTests {
    let guarded = GuardedHTTP(http: HTTPClient())

    @Test(arguments: ["http://10.0.0.1/", "http://127.0.0.1:9/", "http://169.254.169.254/latest/meta-data/", "http://[::1]/",
                      "http://[fe80::1]/", "http://localhost/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/"])
    func refusesPrivateTargets(_ text: String) async throws {
        let url = try OutboundURL(text)
        do {
            _ = try await guarded.send(method: "GET", url: url, headers: [:], body: [], policy: .publicOnly, timeout: .seconds(2), maxBytes: 100)
            Issue.record("\(text) was not refused")
        } catch {
            #expect(error.message.hasPrefix("refused:"), "\(text): \(error.message)")
            #expect(error.message.contains("allow_private"))
        }
    }

    @Test func namesTheResolvedAddressOfAHost() async throws {
        do {
            _ = try await guarded.check(try OutboundURL("http://localhost:1/"), policy: .publicOnly)
            Issue.record("localhost was not refused")
        } catch {
            #expect(error.message.contains("host \"localhost\" resolves to") && error.message.contains("loopback"))
        }
    }
}
