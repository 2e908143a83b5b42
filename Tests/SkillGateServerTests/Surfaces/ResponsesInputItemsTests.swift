import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// `GET /v1/responses/{id}/input_items` (the SDKs' `responses.input_items.list`, decision 0127) through a real gateway in
/// front of an OpenAI-format upstream double: the items the model was given for a stored response (the conversation it
/// continued, then its request's input, never `instructions` nor its own answer), while it is pending in memory and
/// once it is in the state database; to the token that kept it only.
@Suite struct ResponsesInputItemsTests {
    typealias H = SkillsGatewayHarness
    static let config = ResponsesSurfaceTests.config

    static func list(_ h: H, _ id: String, query: String = "", token: String? = nil, method: String = "GET") async throws
        -> (status: Int, headers: HTTPHeaders, json: JSONValue) {
        let r = try await h.client.send(HTTPRequest(method: method, url: "http://127.0.0.1:\(h.gateway.boundPort)/v1/responses/\(id)/input_items\(query)",
                                                    headers: ["authorization": "Bearer \(token ?? h.token)"]))
        return (r.status, r.headers, (try? JSONValue.parse(r.body)) ?? .null)
    }

    /// The items' types, roles and texts, oldest first.
    static func summary(_ list: JSONValue) -> [String] {
        (list["data"]?.arrayValue ?? []).map { item in
            let text = item["content"]?.arrayValue?.compactMap { $0["text"]?.stringValue }.joined() ?? item["name"]?.stringValue
                ?? item["output"]?.arrayValue?.compactMap { $0["text"]?.stringValue }.joined() ?? ""
            return "\(item["type"]?.stringValue ?? "?")/\(item["role"]?.stringValue ?? "-"): \(text)"
        }
    }

    @Test(arguments: [false, true])
    func aChainsInputItemsAreWhatItsModelWasGiven(stream: Bool) async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        func id(_ r: (status: Int, headers: HTTPHeaders, json: JSONValue, text: String)) throws -> String {
            let response = stream ? try #require(try ResponsesSurfaceTests.events(r.text).last?["response"]) : r.json
            return try #require(response["id"]?.stringValue)
        }
        let first = try id(await ResponsesSurfaceTests.post(h, #"{"model":"light","instructions":"Be brief.","input":"Hi","stream":\#(stream)}"#))
        let firstPending = try await Self.list(h, first, query: "?order=asc")
        let second = try id(await ResponsesSurfaceTests.post(h, #"{"model":"light","instructions":"Be brief.","previous_response_id":"\#(first)","input":[{"role":"user","content":"And now? 漢字"}],"stream":\#(stream)}"#))
        await h.gateway.services.responses.flushOffThePool()
        let firstStored = try await Self.list(h, first, query: "?order=asc")
        let secondStored = try await Self.list(h, second, query: "?order=asc")
        let secondNewestFirst = try await Self.list(h, second)
        let sent = try #require(h.upstream.requests.last?["messages"]?.arrayValue)
        await h.stop()

        #expect(firstPending.status == 200 && Self.summary(firstPending.json) == ["message/user: Hi"], "\(firstPending.json)")
        #expect(firstStored.json == firstPending.json)
        #expect(Self.summary(secondStored.json) == ["message/user: Hi", "message/assistant: Hello there.", "message/user: And now? 漢字"])
        #expect(sent.map { $0["role"]?.stringValue ?? "" } == ["system", "user", "assistant", "user"], "the model was given these, and the instructions")
        #expect(secondNewestFirst.json["data"]?.arrayValue == secondStored.json["data"]?.arrayValue?.reversed())
        #expect(secondStored.json["has_more"] == false && secondStored.json["first_id"] == secondStored.json["data"]?.arrayValue?.first?["id"])
        #expect(secondStored.headers["content-type"] == "application/json")
    }

    /// The Response object of a `post` of a whole or a streamed answer.
    static func responseObject(_ r: (status: Int, headers: HTTPHeaders, json: JSONValue, text: String), stream: Bool) throws -> JSONValue {
        stream ? try #require(try ResponsesSurfaceTests.events(r.text).last?["response"]) : r.json
    }

    static func ids(_ list: JSONValue) -> [String] { (list["data"]?.arrayValue ?? []).map { $0["id"]?.stringValue ?? "" } }

    /// A chain of three (decision 0138): each item is listed with the same id from A, B and C; the answers' items with
    /// the ids (and as) their Response objects showed them; an input item the client sent with an id keeps it, one without
    /// gets one of the response that brought it in. The same pending and once stored.
    @Test(arguments: [false, true])
    func anItemKeepsItsIdInEveryListOfAChain(stream: Bool) async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        func create(_ input: String, after previous: String?) async throws -> JSONValue {
            let chained = previous.map { #","previous_response_id":"\#($0)""# } ?? ""
            let r = try await ResponsesSurfaceTests.post(h, #"{"model":"light","instructions":"Be brief.","input":\#(input),"stream":\#(stream)\#(chained)}"#)
            return try Self.responseObject(r, stream: stream)
        }
        let a = try await create(#"[{"role":"user","content":"Hi"},{"id":"msg_mine","type":"message","role":"user","content":[{"type":"input_text","text":"Mine."}]}]"#, after: nil)
        let aId = try #require(a["id"]?.stringValue)
        let b = try await create(#""More?""#, after: aId)
        let bId = try #require(b["id"]?.stringValue)
        let c = try await create(#"[{"role":"user","content":"Last."}]"#, after: bId)
        let cId = try #require(c["id"]?.stringValue)
        let pending = [try await Self.list(h, aId, query: "?order=asc"), try await Self.list(h, bId, query: "?order=asc"),
                       try await Self.list(h, cId, query: "?order=asc")]
        await h.gateway.services.responses.flushOffThePool()
        let stored = [try await Self.list(h, aId, query: "?order=asc"), try await Self.list(h, bId, query: "?order=asc"),
                      try await Self.list(h, cId, query: "?order=asc")]
        let cNewestFirst = try await Self.list(h, cId, query: "?limit=2")
        await h.stop()

        let aOutput = try #require(a["output"]?.arrayValue), bOutput = try #require(b["output"]?.arrayValue)
        let bare = { (id: String) in String(id.dropFirst("resp_".count)) }
        let aInput = ["msg_\(bare(aId))_in0", "msg_mine"]
        #expect(Self.ids(stored[0].json) == aInput, "\(stored[0].json)")
        #expect(Self.ids(stored[1].json) == aInput + aOutput.map { $0["id"]?.stringValue ?? "" } + ["msg_\(bare(bId))_in0"])
        #expect(Self.ids(stored[2].json) == Self.ids(stored[1].json) + bOutput.map { $0["id"]?.stringValue ?? "" } + ["msg_\(bare(cId))_in0"])
        #expect(aOutput.map { $0["id"]?.stringValue } == ["msg_\(bare(aId))_0"] && bOutput.map { $0["id"]?.stringValue } == ["msg_\(bare(bId))_0"])
        #expect(stored[1].json["data"]?.arrayValue?[2] == aOutput[0], "A's answer listed from B as A's Response object showed it")
        #expect(stored[2].json["data"]?.arrayValue?[4] == bOutput[0], "B's answer listed from C as B's Response object showed it")
        let listed = stored.map { $0.json["data"]?.arrayValue ?? [] }
        #expect(Array(listed[1].prefix(2)) == listed[0] && Array(listed[2].prefix(2)) == listed[0], "A's input items listed the same from A, B and C")
        #expect(Array(listed[2].prefix(4)) == listed[1], "B's input items listed the same from B and C")
        #expect(pending.map(\.json) == stored.map(\.json), "the same ids pending and stored")
        #expect(Self.summary(stored[2].json) == ["message/user: Hi", "message/user: Mine.", "message/assistant: Hello there.", "message/user: More?",
                                                  "message/assistant: Hello there.", "message/user: Last."])
        #expect(Self.ids(cNewestFirst.json) == Array(Self.ids(stored[2].json).reversed().prefix(2)))
    }

    /// A tool round trip: the second response's input holds the call the first answered with and the client's output.
    @Test func aToolRoundTripListsTheCallAndItsOutput() async throws {
        let h = try H(config: Self.config, script: ["light-native": .toolCall(name: "get_weather", arguments: #"{"city":"Oslo"}"#)])
        let tools = #"[{"type":"function","name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}]"#
        let first = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Weather in Oslo?","tools":\#(tools)}"#)
        let firstId = try #require(first.json["id"]?.stringValue)
        let second = try await ResponsesSurfaceTests.post(h, #"{"model":"light","previous_response_id":"\#(firstId)","tools":\#(tools),"input":[{"type":"function_call_output","call_id":"call_1","output":"Sunny, 21 C"}]}"#)
        let items = try await Self.list(h, try #require(second.json["id"]?.stringValue), query: "?order=asc&limit=10")
        await h.stop()
        let data = try #require(items.json["data"]?.arrayValue)
        #expect(data.map { $0["type"] } == ["message", "function_call", "function_call_output"], "\(items.json)")
        #expect(data[1]["id"] != nil && data[1]["id"] == first.json["output"]?.arrayValue?.first?["id"], "the call listed with the id its answer showed")
        #expect(data[1]["call_id"] == "call_1" && data[1]["name"] == "get_weather" && data[1]["arguments"] == #"{"city":"Oslo"}"#)
        #expect(data[2]["call_id"] == "call_1" && data[2]["output"] == "Sunny, 21 C" && data[2]["status"] == "completed", "the output as the client sent it")
    }

    /// `limit` and `after` page through a long input, each page's `last_id` leading to the next.
    @Test func aLongInputIsPagedThrough() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("ok")])
        let input = (0..<25).map { #"{"role":"user","content":"message \#($0)"}"# }.joined(separator: ",")
        let created = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":[\#(input)]}"#)
        let id = try #require(created.json["id"]?.stringValue)
        var texts: [String] = []
        var after = ""
        for _ in 0..<4 {
            let page = try await Self.list(h, id, query: "?order=asc&limit=10" + after)
            texts += Self.summary(page.json)
            guard page.json["has_more"] == true, let last = page.json["last_id"]?.stringValue else { break }
            after = "&after=" + last
        }
        let firstPageByDefault = try await Self.list(h, id)
        await h.stop()
        #expect(texts == (0..<25).map { "message/user: message \($0)" })
        #expect(Self.summary(firstPageByDefault.json) == (5..<25).reversed().map { "message/user: message \($0)" }, "20 at a time, newest first")
        #expect(firstPageByDefault.json["has_more"] == true)
    }

    /// Another token, an unknown id and a response sent with `store: false` get the same 404 as a retrieval, naming
    /// `response_id`.
    @Test func onlyTheTokenThatKeptAResponseListsItsItems() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let kept = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Hi"}"#)
        let unstored = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Hi","store":false}"#)
        let other = try h.gateway.services.tokens.create(name: "someone-else", scenarios: ["chat"]).token
        let keptId = try #require(kept.json["id"]?.stringValue), unstoredId = try #require(unstored.json["id"]?.stringValue)
        let answers = [try await Self.list(h, keptId, token: other), try await Self.list(h, "resp_unknown"), try await Self.list(h, unstoredId)]
        let retrieval = try await ResponsesRetrieveTests.get(h, "resp_unknown")
        let mine = try await Self.list(h, keptId)
        await h.stop()
        #expect(mine.status == 200)
        #expect(answers.allSatisfy { $0.status == 404 }, "\(answers.map(\.status))")
        ResponsesRetrieveTests.expectTheSameNotFound(answers.map(\.json), ids: [keptId, "resp_unknown", unstoredId])
        #expect(answers[1].json == retrieval.json, "the same 404 as a retrieval")
    }

    /// A response stored before the gateway kept where its input ends can be continued, not listed: a 404 that says so.
    @Test func aResponseStoredWithoutItsBoundaryIsA404SayingWhy() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        try ResponsesRetrieveTests.storeAnOldResponse(h, object: Array("{}".utf8))
        let old = try await Self.list(h, "resp_old")
        let continued = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Which number?","previous_response_id":"resp_old"}"#)
        let next = try await Self.list(h, try #require(continued.json["id"]?.stringValue), query: "?order=asc")
        await h.stop()
        #expect(old.status == 404 && old.json["error"]?["param"] == "response_id")
        #expect(old.json["error"]?["message"]?.stringValue?.contains("stored before this gateway kept where its input ends") == true, "\(old.json)")
        #expect(Self.summary(next.json) == ["message/user: Remember 7.", "message/assistant: OK.", "message/user: Which number?"], "\(next.json)")
        let bare = String((next.json["data"]?.arrayValue?.first?["id"]?.stringValue ?? "").dropFirst("msg_".count).dropLast("_0".count))
        #expect(Self.ids(next.json) == ["msg_\(bare)_0", "msg_\(bare)_1", "msg_\(bare)_in0"], "the old items with positional ids")
    }

    /// A response stored by a gateway before item ids were kept, with its input's boundary (decision 0127's rows): its items
    /// are listed with positional ids, as then; a continuation lists them with its own positional ids, its own items with
    /// theirs.
    @Test func aResponseStoredBeforeIdsWereKeptListsWithPositionalIds() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let tokenId = try #require(h.gateway.services.tokens.authenticate(h.token)?.id)
        let now = Date()
        let input = #"[{"type":"message","role":"user","content":[{"type":"input_text","text":"Weather?"}]},{"id":"rs","type":"reasoning","summary":[],"encrypted_content":"sig"}"#
        let conversation = Array((input + #",{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Sunny."}]}]"#).utf8)
        try h.gateway.services.responses.store.saveResponses([StoredResponse(id: "resp_0ld", tokenId: tokenId, createdAt: now, expiresAt: now.addingTimeInterval(3600),
                                                                             conversation: conversation, object: Array("{}".utf8), inputEnd: input.utf8.count)], now: now)
        let old = try await Self.list(h, "resp_0ld", query: "?order=asc")
        let afterFirst = try await Self.list(h, "resp_0ld", query: "?order=asc&after=msg_0ld_0")
        let continued = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Tomorrow?","previous_response_id":"resp_0ld"}"#)
        let nextId = try #require(continued.json["id"]?.stringValue)
        let next = try await Self.list(h, nextId, query: "?order=asc")
        await h.stop()
        let bare = String(nextId.dropFirst("resp_".count))
        #expect(Self.ids(old.json) == ["msg_0ld_0", "rs_0ld_1"], "\(old.json)")
        #expect(Self.ids(afterFirst.json) == ["rs_0ld_1"])
        #expect(Self.ids(next.json) == ["msg_\(bare)_0", "rs_\(bare)_1", "msg_\(bare)_2", "msg_\(bare)_in0"], "\(next.json)")
    }

    /// Other methods are a 405 naming GET; a bad query is a 400 naming its parameter, before the store is read.
    @Test func otherMethodsAndBadQueriesAreRefused() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let kept = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Hi"}"#)
        let id = try #require(kept.json["id"]?.stringValue)
        let posted = try await Self.list(h, id, method: "POST")
        let badLimit = try await Self.list(h, id, query: "?limit=500")
        let badAfter = try await Self.list(h, id, query: "?after=msg_nothing_3")
        let noId = try await Self.list(h, "")
        await h.stop()
        #expect(posted.status == 405 && posted.headers["allow"] == "GET, HEAD", "\(posted.json)")
        #expect(badLimit.status == 400 && badLimit.json["error"]?["param"] == "limit")
        #expect(badAfter.status == 400 && badAfter.json["error"]?["param"] == "after")
        #expect(noId.status == 404 && noId.json["error"]?["message"]?.stringValue?.contains("input_items") == true, "\(noId.json)")
    }
}
