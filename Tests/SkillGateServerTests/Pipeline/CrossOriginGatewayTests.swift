import Foundation
import Glibc
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer
import SkillGateTestSupport

/// Cross-origin access through a running gateway (decision 0095): with `cors` configured, a listed page's preflight is
/// answered without a token and every answer to its requests to the client API names its origin (whole, streamed, and
/// a 401 refused at the head); a page not listed, the admin API and a gateway without `cors` get no CORS field.
@Suite struct CrossOriginGatewayTests {
    final class Gateway: Sendable {
        let directory: String
        let server: GatewayServer
        let token: String
        let http = HTTPClient()

        init(cors: String?) throws {
            directory = NSTemporaryDirectory() + "skillgate-cors-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
            let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            try FileManager.default.copyItem(atPath: repo.appendingPathComponent("Providers/demo.json").path, toPath: directory + "/providers/demo.json")
            let config = #"""
            {"listen":"127.0.0.1:0","state_dir":"state","providers_dir":"providers",
             "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light"\#(cors.map { #","cors":"# + $0 } ?? "")}
            """#
            try config.writeAtomically(toFile: directory + "/skillgate.json")
            server = try GatewayServer(config: try GatewayConfig.load(path: directory + "/skillgate.json"), logFD: -1)
            token = try server.services.tokens.create(name: "page").token
            try server.start()
        }

        func send(_ method: String, _ path: String, _ headers: HTTPHeaders, body: String = "") async throws -> HTTPResponse {
            try await http.send(HTTPRequest(method: method, url: "http://127.0.0.1:\(server.boundPort)\(path)", headers: headers, body: Array(body.utf8)))
        }

        func stop() async {
            await server.shutdown()
            http.shutdown()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    static let listed = #"{"allowed_origins":["https://app.example.com","http://localhost:5173"]}"#
    static let page = "https://app.example.com"
    static let chat = #"{"model":"light","messages":[{"role":"user","content":"hi"}]}"#

    static func preflight(_ origin: String?, requesting fields: String = "authorization, content-type, x-stainless-os") -> HTTPHeaders {
        var h: HTTPHeaders = ["access-control-request-method": "POST", "access-control-request-headers": fields]
        if let origin { h.set("origin", origin) }
        return h
    }

    @Test(arguments: ["/v1/chat/completions", "/v1/messages", "/v1/responses", "/v1/agent", "/mcp"])
    func aListedPagesPreflightIsAnsweredWithoutAToken(_ path: String) async throws {
        let gw = try Gateway(cors: Self.listed)
        let r = try await gw.send("OPTIONS", path, Self.preflight(Self.page))
        await gw.stop()
        #expect(r.status == 204)
        #expect(r.headers["access-control-allow-origin"] == Self.page)
        #expect(r.headers["access-control-allow-methods"]?.contains("POST") == true)
        #expect(r.headers["access-control-allow-headers"] == "authorization, content-type, x-stainless-os")
        #expect(r.headers["access-control-max-age"] == "600")
        let vary = r.headers.values("vary").joined(separator: ",")
        #expect(vary.contains("Origin") && vary.contains("Access-Control-Request-Headers"), "\(vary)")
        #expect(r.headers["access-control-allow-credentials"] == nil)
        #expect(r.body.isEmpty)
    }

    /// A list that is not field names is not echoed: the fields the gateway reads are allowed instead.
    @Test func aRequestedListThatIsNotFieldNamesIsReplacedByTheGatewaysOwn() async throws {
        let gw = try Gateway(cors: Self.listed)
        let r = try await gw.send("OPTIONS", "/v1/chat/completions", Self.preflight(Self.page, requesting: "authorization, x-evil: 1"))
        await gw.stop()
        #expect(r.status == 204)
        #expect(r.headers["access-control-allow-headers"] == CrossOriginPolicy.defaultAllowedFields)
    }

    @Test func everyAnswerToAListedPageNamesItsOrigin() async throws {
        let gw = try Gateway(cors: Self.listed)
        let whole = try await gw.send("POST", "/v1/chat/completions", ["origin": Self.page, "authorization": "Bearer \(gw.token)", "content-type": "application/json"], body: Self.chat)
        let streamed = try await gw.send("POST", "/v1/chat/completions", ["origin": Self.page, "authorization": "Bearer \(gw.token)", "content-type": "application/json"],
                                         body: #"{"model":"light","stream":true,"messages":[{"role":"user","content":"hi"}]}"#)
        let badToken = try await gw.send("POST", "/v1/chat/completions", ["origin": Self.page, "authorization": "Bearer sgk_nope", "content-type": "application/json"], body: Self.chat)
        let models = try await gw.send("GET", "/v1/models", ["origin": "http://localhost:5173", "authorization": "Bearer \(gw.token)"])
        await gw.stop()
        #expect(whole.status == 200 && streamed.status == 200 && badToken.status == 401 && models.status == 200)
        for r in [whole, streamed, badToken] {
            #expect(r.headers["access-control-allow-origin"] == Self.page)
            #expect(r.headers["access-control-expose-headers"]?.contains("x-request-id") == true)
            #expect(r.headers["vary"] == "Origin")
        }
        #expect(models.headers["access-control-allow-origin"] == "http://localhost:5173")
    }

    @Test func aPageNotListedGetsA403PreflightAndNoCORSFields() async throws {
        let gw = try Gateway(cors: Self.listed)
        let openAI = try await gw.send("OPTIONS", "/v1/chat/completions", Self.preflight("https://evil.example"))
        let anthropic = try await gw.send("OPTIONS", "/v1/messages", Self.preflight("https://app.example.com.evil.example"))
        let noOrigin = try await gw.send("OPTIONS", "/v1/chat/completions", Self.preflight(nil))
        let post = try await gw.send("POST", "/v1/chat/completions", ["origin": "https://evil.example", "authorization": "Bearer \(gw.token)", "content-type": "application/json"], body: Self.chat)
        await gw.stop()
        #expect(openAI.status == 403 && anthropic.status == 403 && noOrigin.status == 403)
        let message = try JSONValue.parse(openAI.body)["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(#"the origin "https://evil.example""#) && message.contains("cors.allowed_origins"), "\(message)")
        #expect(try JSONValue.parse(anthropic.body)["type"] == "error")
        #expect(post.status == 200)
        for r in [openAI, anthropic, noOrigin, post] { #expect(r.headers["access-control-allow-origin"] == nil) }
    }

    /// The admin API, health and metrics never name another origin, even a listed one.
    @Test(arguments: [("OPTIONS", "/admin/api/tokens"), ("GET", "/healthz"), ("GET", "/metrics"), ("GET", "/console/")])
    func onlyTheClientAPITakesPart(method: String, path: String) async throws {
        let gw = try Gateway(cors: Self.listed)
        var headers = Self.preflight(Self.page)
        headers.set("authorization", "Bearer \(gw.token)")
        let r = try await gw.send(method, path, headers)
        await gw.stop()
        #expect(r.status != 204, "\(r.status)")
        #expect(r.headers["access-control-allow-origin"] == nil)
    }

    @Test func withoutCORSAPreflightIsA405AndNothingNamesAnOrigin() async throws {
        let gw = try Gateway(cors: nil)
        let preflight = try await gw.send("OPTIONS", "/v1/chat/completions", Self.preflight(Self.page))
        let post = try await gw.send("POST", "/v1/chat/completions", ["origin": Self.page, "authorization": "Bearer \(gw.token)", "content-type": "application/json"], body: Self.chat)
        await gw.stop()
        #expect(preflight.status == 405 && post.status == 200)
        #expect(preflight.headers["access-control-allow-origin"] == nil && post.headers["access-control-allow-origin"] == nil)
    }

    @Test func anyOriginIsAStarWithoutVary() async throws {
        let gw = try Gateway(cors: #"{"allowed_origins":["*"],"max_age_seconds":60}"#)
        let preflight = try await gw.send("OPTIONS", "/v1/chat/completions", Self.preflight("https://anywhere.example"))
        let post = try await gw.send("POST", "/v1/chat/completions", ["origin": "https://anywhere.example", "authorization": "Bearer \(gw.token)", "content-type": "application/json"], body: Self.chat)
        await gw.stop()
        #expect(preflight.status == 204 && preflight.headers["access-control-max-age"] == "60")
        #expect(post.headers["access-control-allow-origin"] == "*")
        #expect(post.headers["vary"] == nil)
    }
}
