import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// The Responses API and the response cache (decision 0140): a hit is a new response, with an id of its own, and with
/// `store: true` it is stored under that id as a fresh answer would be; a continued conversation is a hit when the
/// whole conversation is the same.
@Suite struct ResponseCacheResponsesTests {
    @Test(arguments: [false, true])
    func aHitIsANewStoredResponse(_ stream: Bool) async throws {
        let replies = stream ? [OpenAIRecordings.streamedText, OpenAIRecordings.text] : [OpenAIRecordings.text]
        try await ResponseCacheGateway.with(replies) { g, upstream in
            let body = #"{"model":"light","input":"Invent a holiday","store":true,"stream":\#(stream)}"#
            func ask() async throws -> (cache: String?, id: String, text: String) {
                if stream {
                    let r = try await g.stream(body, path: "/v1/responses")
                    let completed = try #require(r.text.split(separator: "\n").last { $0.contains("response.completed") && $0.hasPrefix("data: ") })
                    let response = try #require(try JSONValue.parse(String(completed.dropFirst(6)))["response"])
                    return (r.headers["x-skillgate-cache"], try #require(response["id"]?.stringValue), Self.outputText(response))
                }
                let r = try await g.post(body, path: "/v1/responses")
                #expect(r.status == 200, "\(r.text)")
                return (r.headers["x-skillgate-cache"], try #require(r.json["id"]?.stringValue), Self.outputText(r.json))
            }
            let first = try await ask(), second = try await ask()
            #expect(first.cache == "miss" && second.cache == "hit")
            #expect(upstream.requestCount == 1)
            #expect(second.id != first.id && second.id.hasPrefix("resp_") && !second.text.isEmpty && second.text == first.text)
            await g.server.services.responses.flushOffThePool()
            let stored = try await g.get("/v1/responses/\(second.id)")
            #expect(stored.status == 200 && stored.json["id"]?.stringValue == second.id, "\(stored.text)")
            // It is continued like any response: the continuation is a request of its own (a miss).
            let next = try await g.post(#"{"model":"light","input":"Another one","previous_response_id":"\#(second.id)","stream":false}"#,
                                        path: "/v1/responses")
            #expect(next.status == 200 && next.headers["x-skillgate-cache"] == "miss", "\(next.text)")
        }
    }

    /// The text of a Response object's message items.
    static func outputText(_ response: JSONValue) -> String {
        (response["output"]?.arrayValue ?? []).flatMap { $0["content"]?.arrayValue ?? [] }.compactMap { $0["text"]?.stringValue }.joined()
    }
}
