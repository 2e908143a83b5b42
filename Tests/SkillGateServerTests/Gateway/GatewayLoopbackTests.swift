import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer
import SkillGateTestSupport

/// The whole gateway over loopback with the built-in demo model, called through SkillGate's own HTTPClient.
@Suite(.serialized) struct GatewayLoopbackTests {
    /// A gateway on an ephemeral port with a temp state dir; its log goes into a pipe the test reads.
    final class Harness: @unchecked Sendable {
        let dir: URL
        let server: GatewayServer
        let token: String
        let logRead: Int32
        let http = HTTPClient()
        var base: String { "http://127.0.0.1:\(server.boundPort)" }
        static let providerKey = "sk-test-provider-secret-4f9a"

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-gw-\(UUID().uuidString)")
            let providers = dir.appendingPathComponent("providers")
            try FileManager.default.createDirectory(at: providers, withIntermediateDirectories: true)
            let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            try FileManager.default.copyItem(at: repo.appendingPathComponent("Providers/demo.json"), to: providers.appendingPathComponent("demo.json"))
            let config = #"""
            {"listen":"127.0.0.1:0","state_dir":"state","providers_dir":"providers",
             "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light",
             "scenarios":{"chat":{},"other":{}},"limits":{"shutdown_grace_seconds":1}}
            """#
            let path = dir.appendingPathComponent("skillgate.json").path
            try config.writeAtomically(toFile: path)
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw GatewayError.internalError("pipe failed") }
            _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
            logRead = fds[0]
            server = try GatewayServer(config: try GatewayConfig.load(path: path), logFD: fds[1])
            token = try server.services.tokens.create(name: "test-app", scenarios: ["chat"]).token
            try server.services.keys.set("UNUSED_PROVIDER_KEY", secret: Self.providerKey)
            try server.start()
        }

        func post(_ path: String, _ body: String, headers: HTTPHeaders = [:], auth: Bool = true) async throws -> HTTPResponse {
            var h = headers
            h.set("content-type", "application/json")
            if auth { h.set("authorization", "Bearer \(token)") }
            return try await http.send(HTTPRequest(method: "POST", url: base + path, headers: h, body: Array(body.utf8)))
        }

        func get(_ path: String, method: String = "GET") async throws -> HTTPResponse {
            try await http.send(HTTPRequest(method: method, url: base + path, headers: ["authorization": "Bearer \(token)"]))
        }

        /// Everything logged so far.
        func log() async -> String {
            await server.flushLog()
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(logRead, &buffer, buffer.count)
                if n <= 0 { break }
                out += buffer[0..<n]
            }
            return String(decoding: out, as: UTF8.self)
        }

        func stop() async {
            await server.shutdown()
            http.shutdown()
            try? FileManager.default.removeItem(at: dir)
        }
    }

    static let chat = #"{"model":"light","messages":[{"role":"user","content":"What time is it?"}],"tools":[{"type":"function","function":{"name":"current_time","description":"The current time","parameters":{"type":"object","properties":{}}}}]}"#

    @Test func openAISurfaceAnswersWithHeadersAndToolCalls() async throws {
        let h = try Harness()
        let r = try await h.post("/v1/chat/completions", Self.chat)
        await h.stop()
        #expect(r.status == 200)
        #expect(r.headers["x-request-id"]?.hasPrefix("req_") == true)
        #expect(r.headers["x-skillgate-provider"] == "demo")
        #expect(r.headers["x-skillgate-model"] == "demo/demo-light")
        let body = try JSONValue.parse(r.body)
        #expect(body["choices"]?.arrayValue?.first?["finish_reason"]?.stringValue == "tool_calls")
    }

    @Test func anthropicSurfaceStreamsSSE() async throws {
        let h = try Harness()
        let r = try await h.post("/v1/messages", #"{"model":"strong","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"Hello"}]}"#)
        await h.stop()
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "text/event-stream")
        let text = String(decoding: r.body, as: UTF8.self)
        #expect(text.hasPrefix("event: message_start"))
        #expect(text.contains("event: message_stop"))
    }

    @Test func errorsComeInTheSurfaceShapeWithTheRightStatus() async throws {
        let h = try Harness()
        let noToken = try await h.post("/v1/chat/completions", Self.chat, auth: false)
        let noTokenAnthropic = try await h.post("/v1/messages", Self.chat, auth: false)
        let badToken = try await h.post("/v1/chat/completions", Self.chat, headers: ["x-api-key": "sgk_nope"], auth: false)
        let badJSON = try await h.post("/v1/chat/completions", #"{"model":"light","messages":"#)
        let unknownModel = try await h.post("/v1/chat/completions", #"{"model":"nope/nope","messages":[{"role":"user","content":"x"}]}"#)
        let outOfScope = try await h.post("/v1/chat/completions", Self.chat, headers: ["x-skillgate-scenario": "other"])
        let route = try await h.get("/v2/nothing")
        let method = try await h.get("/v1/chat/completions")
        await h.stop()
        #expect(noToken.status == 401)
        #expect(try JSONValue.parse(noToken.body)["error"]?["type"]?.stringValue == "authentication_error")
        #expect(noTokenAnthropic.status == 401)
        #expect(try JSONValue.parse(noTokenAnthropic.body)["type"]?.stringValue == "error")
        #expect(badToken.status == 401)
        #expect(badJSON.status == 400)
        #expect(unknownModel.status == 404)
        #expect(try JSONValue.parse(unknownModel.body)["error"]?["param"]?.stringValue == "model")
        #expect(outOfScope.status == 403)
        #expect(route.status == 404)
        #expect(method.status == 405)
        #expect(method.headers["allow"] == "POST")
    }

    @Test func modelsListsWhatTheTokenMayUse() async throws {
        let h = try Harness()
        let r = try await h.get("/v1/models")
        await h.stop()
        let ids = try JSONValue.parse(r.body)["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(ids == ["demo/demo", "demo/demo-light", "demo/demo-strong", "auto", "light", "strong"], "deployments, then the router's names (decision 0131)")
    }

    @Test func logHasOneJSONLinePerRequestAndNoSecrets() async throws {
        let h = try Harness()
        _ = try await h.post("/v1/chat/completions", Self.chat)
        _ = try await h.post("/v1/chat/completions", Self.chat, headers: ["x-api-key": h.token + "x"], auth: false)
        _ = try await h.get("/healthz")
        await h.stop()
        let log = await h.log()
        let lines = log.split(separator: "\n")
        #expect(lines.count >= 4)  // listening + 3 requests
        for line in lines { #expect((try? JSONValue.parse(String(line))) != nil, "not JSON: \(line)") }
        #expect(!log.contains(h.token))
        #expect(!log.contains(Harness.providerKey))
        let chatLine = try JSONValue.parse(String(try #require(lines.first { $0.contains("\"path\":\"/v1/chat/completions\"") && $0.contains("\"status\":200") })))
        #expect(chatLine["token"]?.stringValue == "test-app")
        #expect(chatLine["model"]?.stringValue == "demo/demo-light")
        #expect(chatLine["input_tokens"]?.intValue != nil)
    }
}
