import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateSkills

@Suite struct HTTPGetSkillTests {
    static let http = HTTPClient()
    let context = SkillContext(tokenName: "t", requestId: "r")

    func skill(hosts: [String], policy: AddressPolicy, maxBytes: Int = 262_144, maxText: Int = 8_000) -> HTTPGetSkill {
        HTTPGetSkill(config: HTTPGetConfig(allowedHosts: hosts, maxBytes: maxBytes, maxTextCharacters: maxText, timeout: .seconds(5), addressPolicy: policy),
                     client: GuardedHTTP(http: Self.http))
    }

    @Test func fetchesTextAndStripsHTML() async throws {
        let server = try LocalHTTPServer { _ in
            LocalHTTPServer.Reply(headers: ["Content-Type": "text/html; charset=utf-8"],
                                  body: Array("<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Title</h1><p>Hello &amp; welcome</p></body></html>".utf8))
        }
        defer { Task { await server.stop() } }
        let r = try await skill(hosts: ["127.0.0.1"], policy: AddressPolicy(allowPrivate: true)).execute(["url": .string(server.url("/page"))], context: context)
        #expect(!r.isError, "\(r.text)")
        #expect(r.text == "Title\nHello & welcome")
    }

    @Test func followsRedirectsWithinTheAllowlist() async throws {
        let server = try LocalHTTPServer { request in
            request.path == "/start" ? LocalHTTPServer.Reply(status: 302, headers: ["Location": "/final"], body: [])
                                     : LocalHTTPServer.Reply(body: Array("arrived".utf8))
        }
        defer { Task { await server.stop() } }
        let r = try await skill(hosts: ["localhost"], policy: AddressPolicy(allowPrivate: false, exceptions: ["localhost"]))
            .execute(["url": .string("http://localhost:\(server.port)/start")], context: context)
        #expect(r.text == "arrived" && !r.isError)
    }

    @Test func refusesARedirectToAPrivateAddress() async throws {
        let target = try LocalHTTPServer { _ in LocalHTTPServer.Reply(body: Array("internal secrets".utf8)) }
        defer { Task { await target.stop() } }
        let port = target.port
        let first = try LocalHTTPServer { _ in LocalHTTPServer.Reply(status: 302, headers: ["Location": "http://127.0.0.1:\(port)/"], body: []) }
        defer { Task { await first.stop() } }
        // The first hop is allowed (the name "localhost" is exempted); the redirect's literal loopback address is not.
        let r = try await skill(hosts: ["localhost", "127.0.0.1"], policy: AddressPolicy(allowPrivate: false, exceptions: ["localhost"]))
            .execute(["url": .string("http://localhost:\(first.port)/")], context: context)
        #expect(r.isError && r.text.contains("refused") && r.text.contains("loopback"), "\(r.text)")
        #expect(first.requests.count == 1)
        #expect(target.requests.isEmpty)
    }

    @Test func refusesHostsOutsideTheAllowlistAndPrivateNames() async throws {
        let s = skill(hosts: ["example.com", "*.example.org"], policy: .publicOnly)
        let other = try await s.execute(["url": "http://evil.test/"], context: context)
        #expect(other.isError && other.text.contains("not allowed"))
        let loop = try await skill(hosts: ["localhost"], policy: .publicOnly).execute(["url": "http://localhost:1/"], context: context)
        #expect(loop.isError && loop.text.contains("refused"))
        let decimal = try await skill(hosts: ["2130706433"], policy: .publicOnly).execute(["url": "http://2130706433/"], context: context)
        #expect(decimal.isError && decimal.text.contains("numeric"))
        #expect(HTTPGetConfig(allowedHosts: ["*.example.org"]).allows("docs.example.org"))
        #expect(!HTTPGetConfig(allowedHosts: ["*.example.org"]).allows("example.org.evil.test"))
        #expect(!HTTPGetConfig(allowedHosts: ["*.example.org"]).allows("badexample.org"))
    }

    @Test func capsSizeAndRefusesBinary() async throws {
        let server = try LocalHTTPServer { request in
            request.path == "/bin" ? LocalHTTPServer.Reply(headers: ["Content-Type": "image/png"], body: [0x89, 0x50])
                                   : LocalHTTPServer.Reply(body: Array(repeating: UInt8(ascii: "z"), count: 10_000))
        }
        defer { Task { await server.stop() } }
        let s = skill(hosts: ["127.0.0.1"], policy: AddressPolicy(allowPrivate: true), maxBytes: 1_000, maxText: 50)
        let big = try await s.execute(["url": .string(server.url("/big"))], context: context)
        #expect(big.text.hasPrefix(String(repeating: "z", count: 50) + "\n[response cut at 1000 bytes; text cut at 50 characters]"))
        let bin = try await s.execute(["url": .string(server.url("/bin"))], context: context)
        #expect(bin.isError && bin.text.contains("image/png"))
    }

    @Test func stopsAfterTooManyRedirects() async throws {
        let server = try LocalHTTPServer { _ in LocalHTTPServer.Reply(status: 301, headers: ["Location": "/again"], body: []) }
        defer { Task { await server.stop() } }
        let r = try await skill(hosts: ["127.0.0.1"], policy: AddressPolicy(allowPrivate: true)).execute(["url": .string(server.url())], context: context)
        #expect(r.isError && r.text.contains("more than 5 redirects"))
        #expect(server.requests.count == 6)
    }
}
