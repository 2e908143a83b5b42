import Testing
import SkillGateCore
import SkillGateProviders
@testable import SkillGateServer

/// A page of `GET /v1/responses/{id}/input_items` (decision 0127) made from stored items as `ResponsesItemsWriter`
/// writes them: the public item shapes with ids, both orders, `limit` and `after`, and the query's errors.
@Suite struct ResponsesInputItemsPageTests {
    typealias Page = ResponsesInputItemsPage

    /// A conversation's input of every kind of item the writer makes: a system and a user message (text and an image),
    /// an answer with reasoning, text and a signed tool call, and a failed tool result.
    static let messages: [Message] = [
        Message(role: .system, text: "Be brief."),
        Message(role: .user, content: [.text("Wetter in Köln? \"bitte\""), .image(.url("https://example.com/k.png"))]),
        Message(role: .assistant, content: [.thinking(Thinking(text: "Look it up.", signature: "sig-1")), .text("Checking."),
                                            .toolCall(ToolCall(id: "call_1", name: "get_weather", arguments: #"{"city":"Köln"}"#, signature: "ts-1"))]),
        Message(role: .tool, content: [.toolResult(ToolResult(callId: "call_1", content: [.text("no data")], isError: true))]),
    ]
    static let items = OpenAIResponsesFormat.conversationJSON(messages)
    static let id = "resp_0123abc"

    static func page(_ query: Page.Query, items: [UInt8] = items) throws -> JSONValue {
        try JSONValue.parse(try Page.page(of: items, responseId: id, query))
    }

    @Test func everyItemIsListedInItsPublicShapeOldestFirst() throws {
        let list = try Self.page(Page.Query(limit: 100, ascending: true))
        let data = try #require(list["data"]?.arrayValue)
        #expect(list["object"] == "list" && list["has_more"] == false)
        #expect(data.map { $0["type"] } == ["message", "message", "reasoning", "message", "function_call", "function_call_output"])
        #expect(data.map { $0["id"]?.stringValue ?? "" } == ["msg_0123abc_0", "msg_0123abc_1", "rs_0123abc_2", "msg_0123abc_3", "fc_0123abc_4", "fco_0123abc_5"])
        #expect(list["first_id"] == "msg_0123abc_0" && list["last_id"] == "fco_0123abc_5")
        #expect(data[0] == ["id": "msg_0123abc_0", "type": "message", "role": "system",
                            "content": [["type": "input_text", "text": "Be brief."]], "status": "completed"])
        #expect(data[1]["content"] == [["type": "input_text", "text": "Wetter in Köln? \"bitte\""],
                                       ["type": "input_image", "image_url": "https://example.com/k.png", "detail": "auto"]])
        #expect(data[2]["summary"] == [["type": "summary_text", "text": "Look it up."]] && data[2]["status"] == nil)
        #expect(data[3] == ["id": "msg_0123abc_3", "type": "message", "role": "assistant",
                            "content": [["type": "output_text", "text": "Checking.", "annotations": []]], "status": "completed"])
        #expect(data[4] == ["id": "fc_0123abc_4", "type": "function_call", "call_id": "call_1", "name": "get_weather",
                            "arguments": #"{"city":"Köln"}"#, "status": "completed"], "the gateway's own signature is not shown")
        #expect(data[5] == ["id": "fco_0123abc_5", "type": "function_call_output", "call_id": "call_1",
                            "output": [["type": "input_text", "text": "no data"]], "status": "completed"], "nor its error mark")
    }

    /// Newest first by default, 20 at a time; `after` continues in the page's order, whichever it is, and the ids are the
    /// same on every call.
    @Test(arguments: [false, true])
    func pagesFollowOneAnotherWithAfter(ascending: Bool) throws {
        let all = try #require(try Self.page(Page.Query(limit: 100, ascending: ascending))["data"]?.arrayValue)
        var seen: [JSONValue] = []
        var after: String?
        var pages = 0
        repeat {
            let page = try Self.page(Page.Query(limit: 4, ascending: ascending, after: after))
            let data = try #require(page["data"]?.arrayValue)
            seen += data
            after = page["last_id"]?.stringValue
            pages += 1
            #expect(page["has_more"] == .bool(seen.count < all.count))
            if page["has_more"] == false { break }
        } while pages < 5
        #expect(pages == 2)
        #expect(seen == all)
        #expect(all.first?["id"] == (ascending ? "msg_0123abc_0" : "fco_0123abc_5"))
        #expect(try Self.page(Page.Query())["data"] == .array(try #require(try Self.page(Page.Query(limit: 100))["data"]?.arrayValue)))

        let last = try Self.page(Page.Query(limit: 4, ascending: ascending, after: all.last?["id"]?.stringValue))
        #expect(last["data"] == [] && last["first_id"] == .null && last["last_id"] == .null && last["has_more"] == false)
    }

    /// Messages in the short form a client may send (no `type`, a string `content`) are listed in the full one.
    @Test func shortFormMessagesAreListedInTheFullOne() throws {
        let stored = Array(#"[{"role":"user","content":"Remember 7."},{"role":"assistant","content":"OK."}]"#.utf8)
        let data = try #require(try Self.page(Page.Query(ascending: true), items: stored)["data"]?.arrayValue)
        #expect(data == [["id": "msg_0123abc_0", "type": "message", "role": "user", "content": [["type": "input_text", "text": "Remember 7."]], "status": "completed"],
                         ["id": "msg_0123abc_1", "type": "message", "role": "assistant",
                          "content": [["type": "output_text", "text": "OK.", "annotations": []]], "status": "completed"]])
        let next = try Self.page(Page.Query(ascending: true, after: "msg_0123abc_0"), items: stored)
        #expect(next["first_id"] == "msg_0123abc_1")
    }

    /// Stored items as a chain keeps them (decision 0138), after items stored before ids were kept: an old user message,
    /// an old reasoning item with the writer's placeholder `rs`, input items with their ids, an answer's items as its
    /// Response object showed them, and a client's id sent twice.
    static let withIds = Array(#"""
        [{"role":"user","content":"Old."},{"id":"rs","type":"reasoning","summary":[]},\#
        {"id":"msg_A_in0","type":"message","role":"user","content":"Hi"},\#
        {"id":"rs_A_0","type":"reasoning","summary":[{"type":"summary_text","text":"t"}]},\#
        {"id":"msg_A_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hello.","annotations":[],"logprobs":[]}]},\#
        {"id":"msg_client","type":"message","role":"user","content":"again"},{"id":"msg_client","type":"message","role":"user","content":"dup"},\#
        {"id":"fc_A_2","type":"function_call","status":"completed","arguments":"{}","call_id":"c","name":"f","skillgate_signature":"s"}]
        """#.utf8)

    /// Items are listed with the ids stored in them; those without one (stored before ids were kept, or the placeholder of
    /// the old writer) and a second item with an id already listed get positional ones; an answer's item is listed as its
    /// Response object showed it.
    @Test func storedIdsAreListedAndItemsWithoutOneGetPositionalIds() throws {
        let data = try #require(try Self.page(Page.Query(limit: 100, ascending: true), items: Self.withIds)["data"]?.arrayValue)
        #expect(data.map { $0["id"]?.stringValue ?? "" } == ["msg_0123abc_0", "rs_0123abc_1", "msg_A_in0", "rs_A_0", "msg_A_1", "msg_client",
                                                             "msg_0123abc_6", "fc_A_2"])
        let stored = try #require(try JSONValue.parse(Self.withIds).arrayValue)
        #expect(data[4] == stored[4], "the answer's item as its Response object showed it")
        #expect(data[7] == ["id": "fc_A_2", "type": "function_call", "status": "completed", "arguments": "{}", "call_id": "c", "name": "f"])
        #expect(data[2] == ["id": "msg_A_in0", "type": "message", "role": "user", "content": [["type": "input_text", "text": "Hi"]], "status": "completed"])
    }

    /// `after` takes stored and positional ids alike, in both orders; a page ends on a stored id sent twice, and the next
    /// one starts after the item listed with it (the first), not again.
    @Test(arguments: [false, true])
    func pagesFollowOneAnotherThroughStoredIds(ascending: Bool) throws {
        let all = try #require(try Self.page(Page.Query(limit: 100, ascending: ascending), items: Self.withIds)["data"]?.arrayValue)
        var seen: [JSONValue] = []
        var after: String?
        for _ in 0..<8 {
            let page = try Self.page(Page.Query(limit: 3, ascending: ascending, after: after), items: Self.withIds)
            seen += try #require(page["data"]?.arrayValue)
            after = page["last_id"]?.stringValue
            if page["has_more"] == false { break }
        }
        #expect(seen == all)
        for (index, item) in all.enumerated() {
            let next = try Self.page(Page.Query(limit: 1, ascending: ascending, after: item["id"]?.stringValue), items: Self.withIds)
            let expected: JSONValue? = index + 1 < all.count ? .some(all[index + 1]) : .none
            #expect(next["data"]?.arrayValue?.first == expected, "after \(item["id"]?.stringValue ?? "")")
        }
    }

    /// A positional id is no item of a list where the item at its position keeps a stored id.
    @Test(arguments: ["msg_0123abc_2", "msg_0123abc_5", "fc_0123abc_7", "rs_0123abc_3", "msg_A_in1"])
    func aPositionalIdOfAnItemWithAStoredOneIsNoItemHere(after: String) throws {
        #expect(throws: GatewayError.self) { try Page.page(of: Self.withIds, responseId: Self.id, Page.Query(after: after)) }
    }

    @Test func anEmptyInputIsAnEmptyList() throws {
        let list = try Self.page(Page.Query(), items: Array("[]".utf8))
        #expect(list == ["object": "list", "data": [], "first_id": nil, "last_id": nil, "has_more": false])
    }

    /// An `after` that is no item of this list (another response's id for the same position, a position past the end,
    /// no position at all) is a 400 naming `after`.
    @Test(arguments: ["msg_0123abd_0", "fc_0123abc_0", "msg_0123abc_99", "msg_0123abc", "", "msg_0123abc_-1"])
    func anAfterThatIsNoItemHereIsA400(after: String) throws {
        do {
            _ = try Page.page(of: Self.items, responseId: Self.id, Page.Query(after: after))
            Issue.record("after \(after) was taken")
        } catch {
            #expect(error.status == 400 && error.param == "after" && error.message.contains("last_id"), "\(error.message)")
        }
    }

    @Test func theQueryIsRead() throws {
        #expect(try Page.Query(nil) == Page.Query())
        #expect(try Page.Query("limit=5&order=asc&after=msg_x_1&include%5B%5D=message.input_image.image_url&include=reasoning.encrypted_content&foo=1")
                == Page.Query(limit: 5, ascending: true, after: "msg_x_1"))
        #expect(try Page.Query("order=desc&limit=100") == Page.Query(limit: 100, ascending: false))
    }

    @Test(arguments: [("limit=0", "limit"), ("limit=101", "limit"), ("limit=abc", "limit"), ("limit=5&limit=6", "limit"),
                      ("order=newest", "order"), ("after=a&after=b", "after"), ("include[]=everything", "include")])
    func aBadQueryIsA400NamingItsParameter(query: String, param: String) throws {
        do {
            _ = try Page.Query(query)
            Issue.record("\(query) was taken")
        } catch {
            #expect(error.status == 400 && error.param == param, "\(error.message)")
        }
    }

    /// Stored items that are not an array of objects (a damaged row) are a 500 that says what to do, not a crash.
    @Test(arguments: ["[1,2]", "{}", "[{\"type\":\"message\"}", ""])
    func unreadableStoredItemsAreA500(stored: String) throws {
        do {
            _ = try Page.page(of: Array(stored.utf8), responseId: Self.id, Page.Query())
            Issue.record("\(stored) was listed")
        } catch {
            #expect(error.status == 500 && error.message.contains("send the whole conversation"), "\(error.message)")
        }
    }

    /// An `input_image` part is listed with its `detail` (`auto`: the store keeps none), which the SDKs' item types require:
    /// without it the openai SDK did not read a user message with an image as an input message (decision 0133).
    @Test func imagePartsAreListedWithTheirDetail() throws {
        let messages = [
            Message(role: .user, content: [.text("What is this?"), .image(.base64(mediaType: "image/png", data: "iVBORw0KGgo="))]),
            Message(role: .assistant, content: [.toolCall(ToolCall(id: "call_1", name: "snap", arguments: "{}"))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "call_1", content: [.image(.url("https://example.com/s.png"))]))]),
        ]
        let data = try #require(try Self.page(Page.Query(limit: 100, ascending: true), items: OpenAIResponsesFormat.conversationJSON(messages))["data"]?.arrayValue)
        #expect(data[0]["content"]?.arrayValue?[1] == ["type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "auto"], "\(data[0])")
        #expect(data[2]["output"]?.arrayValue?[0] == ["type": "input_image", "image_url": "https://example.com/s.png", "detail": "auto"], "\(data[2])")
        #expect(data[0]["content"]?.arrayValue?[0] == ["type": "input_text", "text": "What is this?"], "other parts as they are")
        let withDetail: JSONObject = ["type": "message", "role": "user", "content": [["type": "input_image", "image_url": "u", "detail": "low"]]]
        #expect(Page.publicItem(withDetail, id: "x")["content"]?.arrayValue?[0]["detail"] == "low", "a detail kept is listed as it is")
    }
}
