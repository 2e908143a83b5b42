import Testing
import Synchronization
import SkillGateCore
@testable import SkillGateProviders

/// The stored conversation keeps each item's id inside it (decision 0138): a request's input items with the client's ids
/// or ones made from the response id, the answer's items as the Response object shows them (its ids), and the continued
/// conversation's items as they were. It still reads back as the conversation the model was given.
@Suite struct ResponsesStoredConversationIdsTests {
    static func object(_ id: String, _ content: [ContentBlock], finish: FinishReason = .stop) -> [UInt8] {
        OpenAIResponsesFormat.responseBody(ChatResponse(id: "x", model: "m", content: content, finishReason: finish),
                                           object: ResponsesObject(id: id, createdAt: 1, model: "m", echo: ResponsesEcho()))
    }

    static func items(_ json: [UInt8]) throws -> [JSONValue] { try #require(try JSONValue.parse(json).arrayValue) }

    static func outputItems(_ object: [UInt8]) throws -> [JSONValue] { try #require(try JSONValue.parse(object)["output"]?.arrayValue) }

    /// Input items keep the client's ids (any kind of item), else get `{prefix}_{response}_in{index}`; a string `input`
    /// is one user message; each id is the item's first member, and the rest of the item is as it was sent.
    @Test func inputItemsKeepTheClientsIdsOrGetOnesOfTheResponse() throws {
        let body = #"{"model":"m","input":[{"role":"user","content":"Hi"},{"id":"msg_client_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello."}]},{"type":"function_call","id":"fc_client_2","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"42","id":7},{"type":"reasoning","id":"","summary":[]}]}"#
        let inbound = try OpenAIResponsesFormat.decodeInboundRequest(Array(body.utf8))
        let stored = ResponsesStoredConversation.write(history: [], input: inbound.inputItems, answer: Message(role: .assistant, text: "ok"),
                                                       object: Self.object("resp_B", [.text("ok")]), responseId: "resp_B")
        let items = try Self.items(stored.conversation)
        #expect(items.map { $0["id"]?.stringValue ?? "" } == ["msg_B_in0", "msg_client_1", "fc_client_2", "fco_B_in3", "rs_B_in4", "msg_B_0"])
        #expect(items.allSatisfy { $0.objectValue?.members.first?.key == "id" })
        #expect(items[0] == ["id": "msg_B_in0", "role": "user", "content": "Hi"])
        #expect(items[3] == ["id": "fco_B_in3", "type": "function_call_output", "call_id": "c1", "output": "42"], "a number is no id: replaced")
        let string = try OpenAIResponsesFormat.decodeInboundRequest(Array(#"{"model":"m","input":"Grüße \"x\""}"#.utf8))
        let one = ResponsesStoredConversation.write(history: [], input: string.inputItems, answer: Message(role: .assistant, content: []),
                                                    object: Self.object("resp_C", []), responseId: "resp_C")
        #expect(try Self.items(one.conversation) == [["id": "msg_C_in0", "type": "message", "role": "user", "content": "Grüße \"x\""]])
        #expect(Array(one.conversation[..<one.inputEnd]) + Array("]".utf8) == one.conversation, "no answer items")
        let unstored = try OpenAIResponsesFormat.decodeInboundRequest(Array(#"{"model":"m","input":"x","store":false}"#.utf8))
        #expect(unstored.inputItems.isEmpty, "nothing kept for an answer that is not stored")
    }

    /// The answer's items are the Response object's output items, byte for byte (so with its ids), whole and streamed;
    /// a streamed text and refusal are two items there though the answer holds them as one text, and are stored so.
    @Test(arguments: [false, true])
    func theAnswersItemsAreTheObjectsOutputItems(stream: Bool) throws {
        let content: [ContentBlock] = [.thinking(Thinking(text: "Think.", signature: "sig")), .text("Checking."),
                                       .toolCall(ToolCall(id: "call_1", name: "get", arguments: #"{"q":"Köln"}"#))]
        var answer = Message(role: .assistant, content: content)
        var object = Self.object("resp_A", content)
        if stream {
            let completed = Mutex<(Message, [UInt8])?>(nil)
            var encoder = ResponsesStreamEncoder(object: ResponsesObject(id: "resp_A", createdAt: 1, model: "m", echo: ResponsesEcho())) { response, bytes in
                completed.locked { $0 = (response.message, bytes) }
            }
            for event: ChatStreamEvent in [.start(id: "x", model: "m"), .textDelta("Sure: "), .refusalDelta("no."), .finish(.stop)] {
                _ = encoder.encode(event)
            }
            _ = encoder.finish()
            (answer, object) = try #require(completed.locked { $0 })
            #expect(answer.content == [.text("Sure: no.")], "the answer holds one text")
        }
        let stored = ResponsesStoredConversation.write(history: [], input: [], answer: answer, object: object, responseId: "resp_A")
        let output = try Self.outputItems(object)
        #expect(try Self.items(stored.conversation) == output)
        #expect(output.map { $0["id"]?.stringValue ?? "" } == (stream ? ["msg_A_0", "msg_A_1"] : ["rs_A_0", "msg_A_1", "fc_A_2"]))
        #expect(stored.inputEnd == 1)
    }

    /// A provider's signature on a tool call (which the object has no field for) is kept in the stored call, after its id.
    @Test func aSignedCallKeepsItsSignature() throws {
        let content: [ContentBlock] = [.toolCall(ToolCall(id: "c1", name: "f", arguments: "{}", signature: "gem-sig")),
                                       .toolCall(ToolCall(id: "c2", name: "g", arguments: "{}"))]
        let stored = ResponsesStoredConversation.write(history: [], input: [], answer: Message(role: .assistant, content: content),
                                                       object: Self.object("resp_A", content), responseId: "resp_A")
        let items = try Self.items(stored.conversation)
        #expect(items.map { $0["id"] } == ["fc_A_0", "fc_A_1"])
        #expect(items[0][ResponsesInputItems.signatureKey] == "gem-sig" && items[1][ResponsesInputItems.signatureKey] == nil)
        let read = try OpenAIResponsesFormat.conversation(fromItems: items)
        #expect(read == [Message(role: .assistant, content: content)])
    }

    /// An object whose output cannot be read stores the answer as items without ids, as before decision 0138.
    @Test(arguments: ["", "{}", #"{"output":{}}"#, #"{"output":[1]}"#])
    func anUnreadableObjectStoresTheAnswerWithoutIds(object: String) throws {
        let stored = ResponsesStoredConversation.write(history: [], input: [], answer: Message(role: .assistant, text: "ok"),
                                                       object: Array(object.utf8), responseId: "resp_A")
        #expect(stored.conversation == OpenAIResponsesFormat.conversationJSON([Message(role: .assistant, text: "ok")]))
    }

    /// Each turn of a chain copies the stored items before it unchanged (so their ids) and reads back as the conversation
    /// the writer of older gateways stored, which is what the model is given when the chain continues.
    @Test(arguments: ResponsesStoredConversationTests.chains.indices)
    func aChainKeepsEveryItemsIdAndReadsBackAsBefore(index: Int) throws {
        var stored: [UInt8] = []
        var storedBefore: [UInt8] = []
        var ids: [JSONValue] = []
        for (turn, step) in ResponsesStoredConversationTests.chains[index].enumerated() {
            let responseId = "resp_T\(turn)"
            var inbound = try OpenAIResponsesFormat.decodeInboundRequest(Array(#"{"model":"m","input":\#(step.input)}"#.utf8))
            if turn > 0 {
                inbound.history = ResponsesHistory(messages: try OpenAIResponsesFormat.conversation(fromItems: try Self.items(storedBefore)),
                                                   itemsJSON: storedBefore)
                inbound.request.messages.insert(contentsOf: inbound.history!.messages, at: 0)
            }
            let answer = Message(role: .assistant, content: step.answer)
            let written = ResponsesStoredConversation.write(history: stored, input: inbound.inputItems, answer: answer,
                                                            object: Self.object(responseId, step.answer), responseId: responseId)
            var before = ResponsesItemsWriter()
            before.append(itemsOf: storedBefore)
            for message in inbound.newInputMessages { before.append(message) }
            before.append(answer)
            storedBefore = before.finish()
            let items = try Self.items(written.conversation)
            #expect(Array(items.prefix(ids.count).map { $0["id"] ?? .null }) == ids, "turn \(turn): the earlier items keep their ids")
            ids = items.map { $0["id"] ?? .null }
            #expect(Set(ids).count == ids.count && !ids.contains(.null), "turn \(turn): \(ids)")
            #expect(try OpenAIResponsesFormat.conversation(fromItems: items) == OpenAIResponsesFormat.conversation(fromItems: try Self.items(storedBefore)),
                    "turn \(turn): \(String(decoding: written.conversation, as: UTF8.self))")
            stored = written.conversation
        }
    }
}
