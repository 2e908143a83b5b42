import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// `GET /v1/responses/{id}` (the SDKs' `responses.retrieve`, decision 0125) through a real gateway in front of an
/// OpenAI-format upstream double: the Response object a stored response was answered with, byte for byte for a whole
/// answer and as `response.completed` carried it for a stream, while the answer is pending in memory and once it is in
/// the state database; to the token that kept it only.
@Suite struct ResponsesRetrieveTests {
    typealias H = SkillsGatewayHarness
    static let config = ResponsesSurfaceTests.config

    static func get(_ h: H, _ id: String, token: String? = nil) async throws -> (status: Int, body: [UInt8], json: JSONValue) {
        let r = try await h.client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(h.gateway.boundPort)/v1/responses/\(id)",
                                                    headers: ["authorization": "Bearer \(token ?? h.token)"]))
        return (r.status, r.body, (try? JSONValue.parse(r.body)) ?? .null)
    }

    @Test func aWholeAnswerIsRetrievedAsItWasGivenPendingAndStored() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let r = try await h.client.send(HTTPRequest(url: "http://127.0.0.1:\(h.gateway.boundPort)/v1/responses",
                                                    headers: ["authorization": "Bearer \(h.token)", "content-type": "application/json"],
                                                    body: Array(#"{"model":"light","input":"Hi","metadata":{"k":"v"}}"#.utf8)))
        #expect(r.status == 200)
        let id = try #require(try JSONValue.parse(r.body)["id"]?.stringValue)
        let pending = try await Self.get(h, id)
        await h.gateway.services.responses.flushOffThePool()
        let stored = try await Self.get(h, id)
        let line = try #require(await h.logLines().last)
        await h.stop()
        #expect(pending.status == 200 && pending.body == r.body, "\(String(decoding: pending.body, as: UTF8.self))")
        #expect(stored.status == 200 && stored.body == r.body, "\(String(decoding: stored.body, as: UTF8.self))")
        #expect(stored.json["metadata"] == ["k": "v"] && stored.json["status"] == "completed")
        #expect(line["surface"] == "responses" && line["status"] == 200 && line["input_tokens"] == nil)
    }

    @Test func aStreamIsRetrievedAsItsCompletedEventCarriedIt() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let r = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Hi","stream":true}"#)
        let completed = try #require(try ResponsesSurfaceTests.events(r.text).last?["response"])
        let id = try #require(completed["id"]?.stringValue)
        await h.gateway.services.responses.flushOffThePool()
        let stored = try await Self.get(h, id)
        await h.stop()
        #expect(stored.status == 200)
        #expect(stored.json == completed)
        #expect(stored.json["output"]?.arrayValue?.first?["content"]?.arrayValue?.first?["text"] == "Hello there.")
    }

    /// HEAD answers what GET would, without the body: a 200 with the object's length for the token that kept it, the
    /// same 404 for another token (before, a 404 saying HEAD is not offered, although GET answered 200).
    @Test func headAnswersAsGetWithoutTheBody() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let kept = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Hi"}"#)
        let id = try #require(kept.json["id"]?.stringValue)
        let other = try h.gateway.services.tokens.create(name: "someone-else", scenarios: ["chat"]).token
        func head(_ token: String) async throws -> HTTPResponse {
            try await h.client.send(HTTPRequest(method: "HEAD", url: "http://127.0.0.1:\(h.gateway.boundPort)/v1/responses/\(id)",
                                                headers: ["authorization": "Bearer \(token)"]))
        }
        let mine = try await head(h.token), theirs = try await head(other)
        let got = try await Self.get(h, id)
        await h.stop()
        #expect(mine.status == 200 && mine.body.isEmpty)
        #expect(mine.headers["content-length"] == String(got.body.count), "\(mine.headers)")
        #expect(theirs.status == 404 && theirs.body.isEmpty)
    }

    /// The SDKs' `retrieve(stream=True)` asks to replay the stream: a 400 naming `stream`, not a JSON body its SSE reader
    /// cannot read.
    @Test func aRetrievalAskingForAStreamIsRefused() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let kept = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Hi"}"#)
        let id = try #require(kept.json["id"]?.stringValue)
        let streamed = try await Self.get(h, id + "?stream=true")
        let plain = try await Self.get(h, id + "?include[]=message.output_text.logprobs")
        await h.stop()
        #expect(streamed.status == 400 && streamed.json["error"]?["param"] == "stream", "\(streamed.json)")
        #expect(plain.status == 200)
    }

    /// Another token, an unknown id and a response sent with `store: false` get the same 404, naming `response_id`.
    @Test func onlyTheTokenThatKeptAResponseRetrievesIt() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let kept = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Hi"}"#)
        let unstored = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Hi","store":false}"#)
        let other = try h.gateway.services.tokens.create(name: "someone-else", scenarios: ["chat"]).token
        let keptId = try #require(kept.json["id"]?.stringValue), unstoredId = try #require(unstored.json["id"]?.stringValue)
        let answers = [try await Self.get(h, keptId, token: other), try await Self.get(h, "resp_unknown"),
                       try await Self.get(h, unstoredId)]
        let mine = try await Self.get(h, keptId)
        await h.stop()
        #expect(mine.status == 200)
        Self.expectTheSameNotFound(answers.map(\.json), ids: [keptId, "resp_unknown", unstoredId])
        for a in answers {
            #expect(a.status == 404)
            #expect(a.json["error"]?["message"]?.stringValue?.contains("was not found for this token") == true, "\(a.json)")
        }
    }

    /// Each answer is the 404 of a response the token does not have (`param` `response_id`, the OpenAI error type), and
    /// with the ids (in the answers' order) taken out, their messages are one: the cases cannot be told apart.
    static func expectTheSameNotFound(_ answers: [JSONValue], ids: [String]) {
        for a in answers {
            #expect(a["error"]?["param"] == "response_id" && a["error"]?["type"] == "invalid_request_error", "\(a)")
        }
        let messages = zip(answers, ids).map { answer, id in (answer["error"]?["message"]?.stringValue ?? "").replacingOccurrences(of: id, with: "X") }
        #expect(Set(messages).count == 1, "the 404s must not tell the cases apart: \(messages)")
    }

    /// Stores `resp_old` for `h`'s token as a gateway before the Response object and the input's boundary were kept did
    /// (`object` given: kept with it, as between schema steps 14 and 15).
    static func storeAnOldResponse(_ h: H, object: [UInt8]? = nil) throws {
        let tokenId = try #require(h.gateway.services.tokens.authenticate(h.token)?.id)
        let now = Date()
        let items = Array(#"[{"role":"user","content":"Remember 7."},{"role":"assistant","content":"OK."}]"#.utf8)
        try h.gateway.services.responses.store.saveResponses([StoredResponse(id: "resp_old", tokenId: tokenId, createdAt: now,
                                                                             expiresAt: now.addingTimeInterval(3600), conversation: items,
                                                                             object: object)], now: now)
    }

    /// A response stored before objects were kept (a row without one) can be continued but not retrieved: a 404 that
    /// says so.
    @Test func aResponseStoredWithoutItsObjectIsA404SayingWhy() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        try Self.storeAnOldResponse(h)
        let old = try await Self.get(h, "resp_old")
        let continued = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Which number?","previous_response_id":"resp_old"}"#)
        await h.stop()
        #expect(old.status == 404 && old.json["error"]?["param"] == "response_id")
        #expect(old.json["error"]?["message"]?.stringValue?.contains("stored before this gateway kept Response objects") == true, "\(old.json)")
        #expect(continued.status == 200, "\(continued.text)")
    }
}
