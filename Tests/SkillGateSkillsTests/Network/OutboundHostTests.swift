import Testing
@testable import SkillGateSkills

/// The host text is reduced to one form before the SSRF check, the pin and libcurl see it
/// (decision 0023): anything libcurl would decode, map or read as a number differently is refused.
@Suite struct OutboundHostTests {
    @Test(arguments: [
        ("http://Example.COM./a", "example.com", "http://example.com/a"),
        ("https://API.example.com:8443", "api.example.com", "https://api.example.com:8443/"),
        ("http://xn--bcher-kva.example/", "xn--bcher-kva.example", "http://xn--bcher-kva.example/"),
        ("http://93.184.216.34/", "93.184.216.34", "http://93.184.216.34/"),
        ("http://[2606:4700:0:0:0:0:0:1111]:81/", "2606:4700::1111", "http://[2606:4700::1111]:81/"),
        ("http://[::FFFF:127.0.0.1]/", "::ffff:127.0.0.1", "http://[::ffff:127.0.0.1]/"),
        ("http://[::ffff:7f00:1]/", "::ffff:127.0.0.1", "http://[::ffff:127.0.0.1]/"),
    ])
    func normalisesToTheTextLibcurlIsGiven(_ input: String, _ host: String, _ text: String) throws {
        let url = try OutboundURL(input)
        #expect(url.host == host)
        #expect(url.text == text)
    }

    @Test(arguments: [
        "http://1.1.1.1%2elocalhost/", "http://%31%32%37.0.0.1/", "http://127%2e0%2e0%2e1/", "http://loc%61lhost/",
        "http://127。0。0。1/", "http://127．0．0．1/", "http://ｌｏｃａｌｈｏｓｔ/", "http://bücher.example/",
        "http://0x7f000001/", "http://2130706433/", "http://127.1/", "http://0177.0.0.1/", "http://127.0.0.01/",
        "http://0x7f.0.0.1/", "http://1.2.3.4.5/", "http://example.0x10/", "http://example.123/", "http://017700000001/",
        "http://evil@127.0.0.1/", "http://user:pw@example.com/", "http://127.0.0.1:80@example.com/",
        "http://[::1%25lo]/", "http://[fe80::1%eth0]/", "http://[127.0.0.1]/", "http://[::1/",
        "http://exa_mple.com/", "http://-example.com/", "http://example-.com/", "http://a..b/", "http://.example.com/",
        "http://./", "http:///x", "http://exa mple.com/", "http://example.com\\@127.0.0.1/",
    ])
    func refusesAmbiguousHostText(_ input: String) {
        #expect(throws: OutboundError.self, "\(input) should be refused") { try OutboundURL(input) }
    }

    @Test func aLongLabelOrNameIsRefused() {
        #expect(throws: OutboundError.self) { try OutboundURL("http://" + String(repeating: "a", count: 64) + ".com/") }
        #expect(throws: OutboundError.self) { try OutboundURL("http://" + Array(repeating: String(repeating: "a", count: 60), count: 5).joined(separator: ".") + "/") }
    }

    @Test func theZoneIdAndPercentFormsAreNoAddress() {
        #expect(IPAddress("1.1.1.1%2elocalhost") == nil)
        #expect(IPAddress("fe80::1%eth0") == nil)
        #expect(IPAddress("::ffff:7f00:1")?.embeddedIPv4 == IPAddress("127.0.0.1"))
    }

    @Test func aPathThatLostItsSlashCannotBecomeTheAuthority() throws {
        var url = try OutboundURL("http://example.com")
        url.pathAndQuery = "@127.0.0.1/"
        #expect(url.text == "http://example.com/@127.0.0.1/")
    }

    @Test(arguments: ["localhost", "api.localhost", "LOCALHOST.", "Localhost"])
    func localhostNamesAreLoopbackWithoutDNS(_ name: String) async throws {
        let resolver = HostResolver { _ in .success([IPAddress("93.184.216.34")!]) }
        let url = try OutboundURL("http://\(name)/")
        #expect(try await resolver.resolve(url.host) == HostResolver.loopback)
    }
}
