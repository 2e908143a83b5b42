import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// A request gives its SkillGate token once. Two `Authorization` fields, two `x-api-key` fields, or both fields with
/// different tokens are a 400: the gateway used the first, and a proxy in front may read another one.
@Suite struct CredentialsGivenTwiceTests {
    typealias Harness = GatewayLoopbackTests.Harness
    static let chat = #"{"model":"light","messages":[{"role":"user","content":"hi"}]}"#
    static let other = "sgk_" + String(repeating: "0", count: 43)

    /// The headers of each case, with `good` standing for the harness's token.
    static let twice: [[(String, String)]] = [
        [("authorization", "Bearer \(other)"), ("authorization", "Bearer good")],
        [("authorization", "Bearer good"), ("authorization", "Bearer \(other)")],
        [("x-api-key", "good"), ("x-api-key", other)],
        [("authorization", "Bearer good"), ("x-api-key", other)],
    ]

    static func headers(_ pairs: [(String, String)], token: String) -> HTTPHeaders {
        HTTPHeaders(pairs.map { ($0.0, $0.1.replacingOccurrences(of: "good", with: token)) })
    }

    @Test(arguments: 0..<4)
    func credentialsGivenTwiceAreA400(_ index: Int) async throws {
        let h = try Harness()
        let r = try await h.post("/v1/chat/completions", Self.chat, headers: Self.headers(Self.twice[index], token: h.token), auth: false)
        await h.stop()
        #expect(r.status == 400)
        let message = try JSONValue.parse(r.body)["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("send the SkillGate token once"), "\(message)")
    }

    /// The fields the gateway decides by are read once too (decision 0096): two `x-skillgate-scenario` fields were
    /// served by the first, where a proxy may check the last.
    @Test(arguments: ["x-skillgate-scenario", "x-skillgate-tier", "x-skillgate-cache-breakpoints"])
    func aDecidingFieldGivenTwiceIsA400(_ name: String) async throws {
        let h = try Harness()
        let value = name == "x-skillgate-scenario" ? "chat" : name == "x-skillgate-tier" ? "light" : "off"
        let twice = HTTPHeaders([(name, value), (name, value)])
        let chat = try await h.post("/v1/chat/completions", Self.chat, headers: twice)
        let once = try await h.post("/v1/chat/completions", Self.chat, headers: HTTPHeaders([(name, value)]))
        var limits = HTTPHeaders([("authorization", "Bearer \(h.token)")])
        for field in twice { limits.add(field.name, field.value) }
        let status = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/v1/models", headers: limits))
        await h.stop()
        #expect(chat.status == 400 && once.status == 200)
        let message = try JSONValue.parse(chat.body)["error"]?["message"]?.stringValue ?? ""
        #expect(message == "the `\(name)` header is given more than once; send it once", "\(message)")
        #expect(try JSONValue.parse(chat.body)["error"]?["param"]?.stringValue == name)
        #expect(status.status == (name == "x-skillgate-scenario" ? 400 : 200))
    }

    @Test func theSameTokenInBothFieldsOrAnotherSchemeBesideAnAPIKeyIsServed() async throws {
        let h = try Harness()
        let same = try await h.post("/v1/chat/completions", Self.chat, headers: Self.headers([("authorization", "Bearer good"), ("x-api-key", "good")], token: h.token), auth: false)
        let basicAndKey = try await h.post("/v1/chat/completions", Self.chat, headers: Self.headers([("authorization", "Basic dXNlcjpwdw=="), ("x-api-key", "good")], token: h.token), auth: false)
        let basic = try await h.post("/v1/chat/completions", Self.chat, headers: ["authorization": "Basic dXNlcjpwdw=="], auth: false)
        await h.stop()
        #expect(same.status == 200 && basicAndKey.status == 200)
        #expect(basic.status == 401)
        let message = try JSONValue.parse(basic.body)["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(#"the "Basic" scheme"#) && message.contains("Bearer <token>"), "\(message)")
    }

    /// A key sent bare in `Authorization` (no scheme) is not echoed in the 401, nor is any part of it logged.
    @Test(arguments: ["sk-proj-abcdefghijklmnop0123", "abcdefghijklmnopqrstuvwx", "Token sk-proj-abcdefghijklmnop0123"])
    func noPartOfACredentialIsEchoed(_ value: String) async throws {
        let h = try Harness()
        let r = try await h.post("/v1/chat/completions", Self.chat, headers: ["authorization": value], auth: false)
        let log = await h.log()
        await h.stop()
        #expect(r.status == 401)
        let secret = value.split(separator: " ").last.map(String.init) ?? value
        let body = String(decoding: r.body, as: UTF8.self)
        #expect(!body.contains(secret.prefix(8)) && !log.contains(secret.prefix(8)), "\(body)")
        let message = try JSONValue.parse(r.body)["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(value.hasPrefix("Token") ? #"the "Token" scheme"# : "no `Bearer` scheme"), "\(message)")
    }
}
