import Synchronization
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

    /// Every spelling of an internal target is refused before a connection, even when DNS would
    /// answer with a public address for the text as written (the resolver here always does).
    @Test(arguments: ["http://1.1.1.1%2elocalhost/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://0x7f000001/",
                      "http://2130706433/", "http://127.1/", "http://0177.0.0.1/", "http://localhost./", "http://LOCALHOST/",
                      "http://x.localhost/", "http://127。0。0。1/", "http://%31%32%37.0.0.1/", "http://evil@127.0.0.1/",
                      "http://[::127.0.0.1]/", "http://[64:ff9b::a9fe:a9fe]/", "http://[2002:a9fe:a9fe::1]/", "http://[fec0::1]/",
                      "http://[2001:0:4136:e378::1]/", "http://[64:ff9b:1::1]/", "http://127.0.0.1./"])
    func refusesEncodedFormsOfInternalTargets(_ text: String) async {
        let guarded = GuardedHTTP(http: HTTPClient(), resolver: HostResolver { _ in .success([IPAddress("93.184.216.34")!]) })
        do {
            let url = try OutboundURL(text)
            try await guarded.check(url, policy: .publicOnly)
            Issue.record("\(text) was not refused (host \(url.host))")
        } catch {
            #expect(!error.message.isEmpty)
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

/// Resolution is done once, every address is checked, and the connection goes to the checked addresses.
@Suite struct GuardedHTTPResolutionTests {
    static let http = HTTPClient()

    @Test func oneRestrictedRecordAmongPublicOnesRefuses() async throws {
        let resolver = HostResolver { _ in .success([IPAddress("93.184.216.34")!, IPAddress("10.0.0.7")!]) }
        let guarded = GuardedHTTP(http: Self.http, resolver: resolver)
        do {
            try await guarded.check(try OutboundURL("https://mixed.test/"), policy: .publicOnly)
            Issue.record("a name with a private record was not refused")
        } catch {
            #expect(error.message.contains("10.0.0.7") && error.message.contains("private"))
        }
    }

    /// The pin is keyed by the normalised name, the one libcurl looks up: however the host was
    /// written, the request can only arrive through the pin (the name is not in DNS).
    @Test(arguments: ["rebind.invalid", "REBIND.Invalid.", "rebind.invalid."])
    func theConnectionIsPinnedToTheCheckedAddress(_ name: String) async throws {
        let server = try LocalHTTPServer { request in LocalHTTPServer.Reply(body: Array("host=\(request.headers["Host"] ?? "")".utf8)) }
        defer { Task { await server.stop() } }
        let calls = Mutex(0)
        // The name does not exist in DNS: the request can only arrive through the pin.
        let resolver = HostResolver { _ in calls.locked { $0 += 1 }; return .success([IPAddress("127.0.0.1")!]) }
        let guarded = GuardedHTTP(http: Self.http, resolver: resolver)
        let url = try OutboundURL("http://\(name):\(server.port)/")
        let response = try await guarded.send(method: "GET", url: url, headers: [:], body: [], policy: AddressPolicy(allowPrivate: false, exceptions: ["127.0.0.1/32"]),
                                              timeout: .seconds(5), maxBytes: 1000)
        #expect(String(decoding: response.body, as: UTF8.self) == "host=rebind.invalid:\(server.port)")
        #expect(calls.locked { $0 } == 1)
    }
}
