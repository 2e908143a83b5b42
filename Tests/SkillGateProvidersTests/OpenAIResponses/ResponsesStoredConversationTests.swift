import Testing
import SkillGateCore
@testable import SkillGateProviders

/// The stored conversation (`previous_response_id`) is written straight to bytes by `ResponsesItemsWriter`: the
/// same bytes the `JSONValue` tree it replaced serialized to (kept here as the reference), read back as the same
/// messages, also when a chain of responses copies each stored conversation's items into the next.
@Suite struct ResponsesStoredConversationTests {
    /// The stored form as it was written before `ResponsesItemsWriter`: a tree of input items, then serialized.
    static func referenceItems(_ messages: [Message]) -> JSONValue {
        var items: [JSONValue] = []
        func parts(_ content: [ContentBlock]) -> [JSONValue] {
            content.compactMap { block in
                switch block {
                case .text(let t): return ["type": "input_text", "text": .string(t)]
                case .image(let source): return ["type": "input_image", "image_url": .string(source.urlString)]
                default: return nil
                }
            }
        }
        for message in messages {
            switch message.role {
            case .system, .user:
                items.append(["type": "message", "role": message.role == .system ? "system" : "user", "content": .array(parts(message.content))])
            case .assistant:
                for block in message.content {
                    switch block {
                    case .text(let t):
                        items.append(["type": "message", "role": "assistant", "content": [["type": "output_text", "text": .string(t)]]])
                    case .thinking(let thinking):
                        var item: [UInt8] = []
                        ResponsesOutputItems.writeReasoning(id: "rs", thinking: thinking, to: &item)
                        items.append(try! JSONValue.parse(item))
                    case .toolCall(let call):
                        var item: JSONObject = ["type": "function_call", "call_id": .string(call.id), "name": .string(call.name),
                                                "arguments": .string(call.arguments)]
                        item.append(ResponsesInputItems.signatureKey, ifPresent: call.signature.map(JSONValue.string))
                        items.append(.object(item))
                    case .image, .toolResult:
                        break
                    }
                }
            case .tool:
                for result in message.toolResults {
                    var item: JSONObject = ["type": "function_call_output", "call_id": .string(result.callId), "output": .array(parts(result.content))]
                    if result.isError { item.append(ResponsesInputItems.isErrorKey, true) }
                    items.append(.object(item))
                }
            }
        }
        return .array(items)
    }

    static let awkward = "Grüße \"quoted\" \\ back/slash\ttab\nline\r\u{01}\u{1F}\u{7F} \u{2028} 漢字 🎉"

    /// Conversations as the gateway stores them, by name: every message role and content block the stored form
    /// carries, text that needs escapes, and blocks the stored form drops.
    static let conversations: [(String, [Message])] = [
        ("a string input and a text answer", [Message(role: .user, text: "Hi"), Message(role: .assistant, text: "Hello.")]),
        ("instructions-free item input", [
            Message(role: .system, text: "Rules."),
            Message(role: .user, content: [.text("Hi"), .text(" again")]),
            Message(role: .assistant, content: [.text("I will look."), .text("Second part.")]),
            Message(role: .user, content: []),
            Message(role: .assistant, text: ""),
        ]),
        ("tool calls and outputs", [
            Message(role: .user, text: "Weather?"),
            Message(role: .assistant, content: [.thinking(Thinking(text: "Need a tool.", signature: "sig==")), .text("Checking."),
                                                .toolCall(ToolCall(id: "c1", name: "weather", arguments: #"{"city":"Köln"}"#, signature: "gsig")),
                                                .toolCall(ToolCall(id: "c2", name: "time", arguments: ""))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "c1", name: "weather", text: "Sunny")),
                                           .toolResult(ToolResult(callId: "c2", name: "time", content: [.text("a"), .text("b")], isError: true)),
                                           .toolResult(ToolResult(callId: "c3", content: []))]),
            Message(role: .assistant, content: [.thinking(Thinking(text: "", redactedData: "xyz")), .thinking(Thinking(text: "", signature: "only-sig")),
                                                .text("Sunny.")]),
        ]),
        ("images", [
            Message(role: .user, content: [.text("What is this?"), .image(.url("https://example.com/a.png")),
                                           .image(.base64(mediaType: "image/png", data: "iVBORw0KGgo="))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "c1", content: [.image(.url("https://example.com/b.png")), .text("chart")]))]),
            Message(role: .assistant, text: "A chart."),
        ]),
        ("non-ASCII text and escapes everywhere", [
            Message(role: .system, text: awkward),
            Message(role: .user, text: awkward),
            Message(role: .assistant, content: [.thinking(Thinking(text: awkward, signature: awkward)),
                                                .toolCall(ToolCall(id: awkward, name: "f", arguments: #"{"q":"\"\u00e9\"\n"}"#, signature: awkward)),
                                                .text(awkward)]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: awkward, text: awkward, isError: true))]),
        ]),
        ("dropped blocks: an empty reasoning, an image in an answer", [
            Message(role: .user, text: "x"),
            Message(role: .assistant, content: [.thinking(Thinking(text: "")), .image(.url("https://example.com/c.png")), .text("y")]),
        ]),
        ("nothing", []),
    ]

    @Test(arguments: conversations.indices)
    func theWriterWritesTheBytesTheTreeDid(index: Int) throws {
        let (name, messages) = Self.conversations[index]
        let written = OpenAIResponsesFormat.conversationJSON(messages)
        let reference = Self.referenceItems(messages).serializedBytes()
        #expect(written == reference, "\(name): \(String(decoding: written, as: UTF8.self))")
        let read = try OpenAIResponsesFormat.conversation(fromItems: try #require(try JSONValue.parse(written).arrayValue))
        let readReference = try OpenAIResponsesFormat.conversation(fromItems: try #require(try JSONValue.parse(reference).arrayValue))
        #expect(read == readReference, "\(name)")
    }

    /// Conversations with nothing the stored form drops or merges come back exactly.
    @Test(arguments: [0, 2, 3, 4])
    func aConversationReadsBackAsItWas(index: Int) throws {
        let (name, messages) = Self.conversations[index]
        let read = try OpenAIResponsesFormat.conversation(fromItems: try #require(try JSONValue.parse(OpenAIResponsesFormat.conversationJSON(messages)).arrayValue))
        // The stored form has no tool names: they come back from the calls earlier in the conversation.
        let expected = messages.map { m in
            var m = m
            m.content = m.content.map { block in
                guard case .toolResult(var r) = block else { return block }
                r.name = messages.lazy.flatMap(\.toolCalls).first { $0.id == r.callId }?.name
                return .toolResult(r)
            }
            return m
        }
        #expect(read == expected, "\(name)")
    }

    /// Turns of a chain: each continues the previous one (`previous_response_id`) with the request's `input` and gets an
    /// answer. Boundaries where items merge into one message are included: an answer that is a tool call followed by
    /// the outputs, an input that starts with an assistant item after an answer, consecutive outputs across turns.
    static let chains: [[(input: String, answer: [ContentBlock])]] = [
        [(#""Weather in Köln?""#, [.toolCall(ToolCall(id: "call_1", name: "weather", arguments: #"{"city":"Köln"}"#))]),
         (#"[{"type":"function_call_output","call_id":"call_1","output":"Sonnig, 21 °C"}]"#, [.text("It is sunny.")]),
         (#""And tomorrow?""#, [.thinking(Thinking(text: "Hmm.", signature: "s1")), .text("Rain.")])],
        [(#"[{"role":"developer","content":"Be brief."},{"role":"user","content":[{"type":"input_text","text":"\u00e9 \"x\" \\n"},{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="}]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Let me see."}]}]"#,
          [.toolCall(ToolCall(id: "c1", name: "look", arguments: "{}", signature: "gem"))]),
         (#"[{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"a cat"}],"skillgate_is_error":true},{"type":"function_call","call_id":"c2","name":"look","arguments":{"again":true}}]"#,
          [.text("A cat, I think.")]),
         (#"[{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"No."}]},{"type":"reasoning","summary":[],"encrypted_content":"redacted:zz"},{"role":"user","content":"Why?"}]"#,
          [.text("Because.")]),
         (#"[{"type":"function_call_output","call_id":"c2","output":"more"}]"#, [.text("Done.")])],
    ]

    /// The stored conversation of each turn, written as the surface writes it (the previous turn's stored items copied,
    /// then this input's and the answer's), reads back as the conversation the tree of the whole conversation gave:
    /// what the request decoded (history, then input) and the answer.
    @Test(arguments: chains.indices)
    func aChainCopyingStoredItemsReadsBackAsTheWholeConversation(index: Int) throws {
        var stored: [UInt8]?
        var storedByTree: [UInt8]?
        for (turn, step) in Self.chains[index].enumerated() {
            var inbound = try OpenAIResponsesFormat.decodeInboundRequest(Array(#"{"model":"m","input":\#(step.input)}"#.utf8))
            var historyByTree: [Message] = []
            if let stored, let storedByTree {
                let items = try #require(try JSONValue.parse(stored).arrayValue)
                inbound.history = ResponsesHistory(messages: try OpenAIResponsesFormat.conversation(fromItems: items), itemsJSON: stored)
                inbound.request.messages.insert(contentsOf: inbound.history!.messages, at: 0)
                historyByTree = try OpenAIResponsesFormat.conversation(fromItems: try #require(try JSONValue.parse(storedByTree).arrayValue))
                #expect(inbound.history!.messages == historyByTree, "turn \(turn)")
            }
            let answer = Message(role: .assistant, content: step.answer)
            var items = ResponsesItemsWriter()
            items.append(itemsOf: inbound.history?.itemsJSON ?? [])
            for message in inbound.newInputMessages { items.append(message) }
            items.append(answer)
            stored = items.finish()
            storedByTree = Self.referenceItems(historyByTree + Array(inbound.newInputMessages) + [answer]).serializedBytes()
            let read = try OpenAIResponsesFormat.conversation(fromItems: try #require(try JSONValue.parse(stored!).arrayValue))
            let readByTree = try OpenAIResponsesFormat.conversation(fromItems: try #require(try JSONValue.parse(storedByTree!).arrayValue))
            #expect(read == readByTree, "turn \(turn): \(String(decoding: stored!, as: UTF8.self))")
            #expect(read.count >= turn + 2)
        }
    }

    @Test(arguments: [
        ("[]", ""), ("[ ]", ""), (" [\n] ", ""), (#"[{"a":1}]"#, #"{"a":1}"#), (" [ {\"a\":1} , 2 ]\n", "{\"a\":1} , 2"),
    ])
    func theItemsOfAStoredArrayAreItsBytesBetweenTheBrackets(json: String, inner: String) throws {
        let bytes = Array(json.utf8)
        let range = try #require(ResponsesItemsWriter.itemsBetweenBrackets(bytes))
        #expect(String(decoding: bytes[range], as: UTF8.self) == inner)
        var items = ResponsesItemsWriter()
        items.append(Message(role: .user, text: "a"))
        let appended = items.append(itemsOf: bytes)
        #expect(appended)
        items.append(Message(role: .user, text: "b"))
        let written = items.finish()
        #expect(try JSONValue.parse(written).arrayValue?.count == 2 + (inner.isEmpty ? 0 : try JSONValue.parse(bytes).arrayValue!.count))
    }

    @Test(arguments: ["", "{}", "[1", "1]", "null"])
    func whatIsNotAnArrayAddsNothing(json: String) {
        var items = ResponsesItemsWriter()
        let appended = items.append(itemsOf: Array(json.utf8))
        #expect(!appended)
        #expect(items.finish() == Array("[]".utf8))
    }
}
