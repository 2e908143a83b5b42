import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// Every message to `/mcp` counts against the token's limits, whatever its method (decision 0118; before, only
/// `tools/call` did, so a token could send `initialize`, `ping`, `tools/list` and notifications without bound).
@Suite(.serialized) struct MCPLimitsTests {
    static func message(_ method: String, id: Int?) -> String {
        id.map { #"{"jsonrpc":"2.0","id":\#($0),"method":"\#(method)"}"# } ?? #"{"jsonrpc":"2.0","method":"\#(method)"}"#
    }

    @Test func everyMethodCountsAgainstRequestsPerMinute() async throws {
        // The clock starts at 2026-05-28T20:26:40Z: the minute resets in 20 s.
        let h = try TeamHarness(tokenLimits: TokenLimits(requestsPerMinute: 3))
        let initialize = try await h.post("/mcp", Self.message("initialize", id: 1))
        let initialized = try await h.post("/mcp", Self.message("notifications/initialized", id: nil))
        let list = try await h.post("/mcp", Self.message("tools/list", id: 2))
        let ping = try await h.post("/mcp", Self.message("ping", id: 3))
        let note = try await h.post("/mcp", Self.message("notifications/initialized", id: nil))
        let call = try await h.post("/mcp", #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"clock"}}"#)
        h.advance(60)
        let nextMinute = try await h.post("/mcp", Self.message("ping", id: 5))
        await h.stop()
        #expect(initialize.status == 200 && initialized.status == 202 && list.status == 200)
        for (refused, id) in [(ping, JSONValue.int(3)), (note, .null), (call, .int(4))] {
            #expect(refused.status == 429)
            #expect(refused.headers["retry-after"] == "20")
            let body = try JSONValue.parse(String(decoding: refused.body, as: UTF8.self))
            #expect(body["jsonrpc"] == "2.0" && body["id"] == id, "\(body)")
            #expect(body["error"]?["code"] == -32029)
            let message = body["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("requests_per_minute") && message.contains("skillgate tokens update team-app --rpm"), "\(message)")
        }
        #expect(nextMinute.status == 200)
    }
}
