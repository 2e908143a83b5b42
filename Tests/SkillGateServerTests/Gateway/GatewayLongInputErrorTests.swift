import Foundation
import Testing
import SkillGateCore
@testable import SkillGateServer

/// An error that quotes what the caller sent stays small in the answer and in the log (decision 0082).
@Suite struct GatewayLongInputErrorTests {
    typealias Harness = GatewayLoopbackTests.Harness

    @Test func aHugeModelNameMakesASmallErrorAndASmallLogLine() async throws {
        let h = try Harness()
        let model = String(repeating: "m", count: 30_000)
        let r = try await h.post("/v1/chat/completions", #"{"model":"\#(model)","messages":[{"role":"user","content":"hi"}]}"#)
        let log = h.log()
        await h.stop()
        #expect(r.status == 404)
        #expect(r.body.count < 2_500, "the error answer is \(r.body.count) bytes")
        let message = try #require(try JSONValue.parse(r.body)["error"]?["message"]?.stringValue)
        #expect(message.hasPrefix("model \"mmm") && message.contains(" … "))
        let line = try #require(log.split(separator: "\n").last { $0.contains(#""status":404"#) })
        #expect(line.utf8.count < 3_000, "the log line is \(line.utf8.count) bytes")
    }
}
