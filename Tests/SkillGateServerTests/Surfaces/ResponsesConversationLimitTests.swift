import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// Continuing a stored conversation with `previous_response_id` is refused once it and the new input are over the
/// longest conversation kept (decision 0096): a chain of 3 MB inputs grew each stored row by 3 MB before.
@Suite struct ResponsesConversationLimitTests {
    typealias Harness = GatewayLoopbackTests.Harness

    static func body(_ text: String, previous: String?) -> String {
        #"{"model":"light","input":"\#(text)""# + (previous.map { #","previous_response_id":"\#($0)""# } ?? "") + "}"
    }

    @Test func aChainStopsAtTheLongestConversationKept() async throws {
        let h = try Harness()
        let input = String(repeating: "x", count: 3_000_000)
        var previous: String?
        var statuses: [Int] = []
        var refusal = JSONValue.null
        for _ in 0..<3 {
            let r = try await h.post("/v1/responses", Self.body(input, previous: previous))
            statuses.append(r.status)
            let json = try JSONValue.parse(r.body)
            if r.status == 200 { previous = json["id"]?.stringValue } else { refusal = json }
        }
        await h.stop()
        #expect(statuses == [200, 200, 400])
        #expect(refusal["error"]?["param"] == "previous_response_id")
        let message = refusal["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("over the 8 MiB kept for one conversation") && message.contains("start a new one"), "\(message)")
    }
}
