import Testing
@testable import SkillGateHTTP

/// Which requests the own HTTP/1.1 client takes (decision 0051): plain URLs to numeric or pinned addresses, with no
/// proxy in the way; everything else stays with libcurl.
@Suite struct HTTP1TargetTests {
    static let direct = ProxyEnvironment(proxy: nil, noProxy: nil)

    @Test(arguments: [
        ("http://127.0.0.1:8080/v1/chat/completions", "127.0.0.1", 8080, "127.0.0.1:8080", "/v1/chat/completions"),
        ("HTTP://10.0.0.2/v1/models?limit=5#top", "10.0.0.2", 80, "10.0.0.2", "/v1/models?limit=5"),
        ("http://[::1]:9000", "::1", 9000, "[::1]:9000", "/"),
        ("http://127.0.0.1:8080?x=1", "127.0.0.1", 8080, "127.0.0.1:8080", "/?x=1"),
        ("http://127.0.0.1/a%20b", "127.0.0.1", 80, "127.0.0.1", "/a%20b"),
    ])
    func plainNumericURLsAreTaken(url: String, address: String, port: Int, authority: String, target: String) throws {
        let taken = try #require(HTTP1Target(HTTPRequest(url: url), proxy: Self.direct))
        #expect(taken.endpoint.addresses == [address] && taken.endpoint.port == port)
        var head: [UInt8] = []
        taken.appendAuthority(to: &head)
        #expect(String(decoding: head, as: UTF8.self) == authority)
        head = []
        taken.appendRequestTarget(to: &head)
        #expect(String(decoding: head, as: UTF8.self) == target)
    }

    @Test(arguments: [
        "http://127.0.0.1/..", "http://127.0.0.1/./x", "http://[::1]x/", "http://[::1]:/",
        "https://127.0.0.1/v1", "ftp://127.0.0.1/", "http://localhost:8080/", "http://api.example.com/v1",
        "http://user:pw@127.0.0.1/", "http://127.0.0.1%2elocalhost/", "http://0x7f000001/", "http://127.1/",
        "http://[::ffff:127.0.0.1%25eth0]/", "http://127.0.0.1:0/", "http://127.0.0.1:65536/", "http://127.0.0.1:/",
        "http://127.0.0.1/a/../b", "http://127.0.0.1/a/./b", "http://127.0.0.1/a/..", "http://127.0.0.1/a b",
        "http://127.0.0.1/\u{e9}", "http://", "http://:80/", "http://[::1/",
    ])
    func everythingElseStaysWithLibcurl(url: String) {
        #expect(HTTP1Target(HTTPRequest(url: url), proxy: Self.direct) == nil)
    }

    @Test func aPinForTheURLsHostAndPortGivesItsAddressesInOrder() throws {
        var request = HTTPRequest(url: "http://api.internal:8443/v1")
        request.pin = HTTPAddressPin(host: "API.internal", port: 8443, addresses: ["10.1.2.3", "fd00::7"])
        let taken = try #require(HTTP1Target(request, proxy: ProxyEnvironment(proxy: "http://proxy:3128", noProxy: nil)))
        #expect(taken.endpoint.addresses == ["10.1.2.3", "fd00::7"] && taken.endpoint.port == 8443)
        var authority: [UInt8] = []
        taken.appendAuthority(to: &authority)
        #expect(String(decoding: authority, as: UTF8.self) == "api.internal:8443")
        request.pin = HTTPAddressPin(host: "api.internal", port: 80, addresses: ["10.1.2.3"])
        #expect(HTTP1Target(request, proxy: Self.direct) == nil, "a pin for another port does not apply")
        request.pin = HTTPAddressPin(host: "api.internal", port: 8443, addresses: ["not-an-address"])
        #expect(HTTP1Target(request, proxy: Self.direct) == nil)
    }

    @Test(arguments: [
        ("127.0.0.1,localhost", "127.0.0.1", true), ("*", "10.0.0.1", true), (" 10.0.0.1 , x", "10.0.0.1", true),
        ("[::1]", "::1", true), ("10.0.0.0/8", "10.0.0.1", false), (".example.com", "10.0.0.1", false), ("", "10.0.0.1", false),
    ])
    func aProxyIsBypassedOnlyForAddressesNoProxyNamesExactly(noProxy: String, host: String, direct: Bool) {
        let environment = ProxyEnvironment(proxy: "http://proxy:3128", noProxy: noProxy.isEmpty ? nil : noProxy)
        #expect(environment.goesDirect(to: host) == direct)
        #expect(ProxyEnvironment(proxy: nil, noProxy: nil).goesDirect(to: host))
    }
}

extension HTTP1Target: Equatable {
    public static func == (a: HTTP1Target, b: HTTP1Target) -> Bool {
        a.endpoint == b.endpoint && a.url == b.url && a.authority == b.authority && a.requestTarget == b.requestTarget
    }
}
