import Testing
@testable import SkillGateSkills

@Suite struct AddressPolicyTests {
    @Test(arguments: ["10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1", "127.0.0.1", "127.9.9.9", "169.254.169.254",
                      "0.0.0.0", "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1",
                      "ff02::1", "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254"])
    func refusesRestrictedAddresses(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressPolicy.publicOnly.refusal(for: address, host: text) != nil, "\(text) should be refused")
    }

    /// The IANA special-purpose ranges that were missing, and the transition prefixes (decision 0023).
    @Test(arguments: ["192.0.2.1", "198.51.100.7", "203.0.113.9", "192.88.99.1", "198.19.255.255", "240.0.0.1",
                      "64:ff9b::7f00:1", "64:ff9b:1::1", "64:ff9b:1:ffff::1", "100::1", "2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
                      "2001:1ff::1", "2001:db8::1", "2002:7f00:1::1", "2002:808:808::1", "3fff::1", "5f00::1", "fec0::1", "feff::1",
                      "::ffff:7f00:1", "::127.0.0.1", "::10.0.0.1", "4000::1", "1::1", "::2"])
    func refusesSpecialPurposeRanges(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressPolicy.restrictedKind(address) != nil, "\(text) should be refused")
    }

    @Test(arguments: ["93.184.216.34", "8.8.8.8", "172.32.0.1", "172.15.255.255", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8",
                      "2a00:1450:4001::200e", "2001:200::1", "192.0.3.1", "198.20.0.1"])
    func allowsPublicAddresses(_ text: String) throws {
        #expect(AddressPolicy.publicOnly.refusal(for: try #require(IPAddress(text)), host: text) == nil)
    }

    @Test func exceptionsAllowWhatTheConfigNames() throws {
        let policy = AddressPolicy(allowPrivate: false, exceptions: ["10.1.0.0/16", "crm.internal", "fd00::/8"])
        #expect(policy.refusal(for: IPAddress("10.1.2.3")!, host: "10.1.2.3") == nil)
        #expect(policy.refusal(for: IPAddress("10.2.0.1")!, host: "10.2.0.1") != nil)
        #expect(policy.refusal(for: IPAddress("192.168.0.9")!, host: "CRM.internal") == nil)
        #expect(policy.refusal(for: IPAddress("fd00::5")!, host: "x") == nil)
        #expect(policy.refusal(for: IPAddress("127.0.0.1")!, host: "other.internal") != nil)
        #expect(AddressPolicy(allowPrivate: true).refusal(for: IPAddress("127.0.0.1")!, host: "localhost") == nil)
    }

    @Test func parsesOnlyCanonicalForms() {
        #expect(IPAddress("0177.0.0.1") == nil)
        #expect(IPAddress("2130706433") == nil)
        #expect(IPAddress("127.1") == nil)
        #expect(IPAddress("[fe80::1]")?.description == "fe80::1")
        #expect(IPAddress("1.2.3.4")?.description == "1.2.3.4")
        #expect(IPNetwork("172.16.0.0/12")!.contains(IPAddress("172.20.1.1")!))
        #expect(!IPNetwork("172.16.0.0/12")!.contains(IPAddress("172.32.0.1")!))
    }

    @Test(arguments: ["http://2130706433/", "http://0177.0.0.1/", "http://0x7f.0.0.1/", "http://127.1/", "http://017700000001/"])
    func refusesNumericHostForms(_ url: String) {
        #expect(throws: OutboundError.self) { try OutboundURL(url) }
    }

    @Test func parsesURLs() throws {
        let v6 = try OutboundURL("http://[fe80::1]:8080/a?b=1#frag")
        #expect(v6.host == "fe80::1" && v6.port == 8080 && v6.pathAndQuery == "/a?b=1")
        #expect(try OutboundURL("HTTPS://Example.COM").text == "https://example.com/")
        #expect(throws: OutboundError.self) { try OutboundURL("ftp://example.com/") }
        #expect(throws: OutboundError.self) { try OutboundURL("http://user:pw@example.com/") }
        let base = try OutboundURL("https://example.com/docs/a.html")
        #expect(try base.resolving("b.html").text == "https://example.com/docs/b.html")
        #expect(try base.resolving("/root").text == "https://example.com/root")
        #expect(try base.resolving("//other.org/x").text == "https://other.org/x")
        #expect(try base.resolving("http://127.0.0.1:9/").host == "127.0.0.1")
    }
}
