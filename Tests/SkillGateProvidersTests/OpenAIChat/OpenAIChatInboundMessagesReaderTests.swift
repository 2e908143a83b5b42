import Testing
import SkillGateCore
@testable import SkillGateProviders

/// The `messages` array read straight from the bytes (`InboundMessages.read`) decodes as its tree does: the same
/// messages, or, when it gives the array back to the tree, the same error in the same order among the body's checks.
@Suite struct OpenAIChatInboundMessagesReaderTests {
    /// What decoding the body's tree gives (parsed as a client's body is: a repeated key refused), with a syntax error
    /// worded as the body decoder words it.
    static func viaTree(_ body: [UInt8]) -> Result<OpenAIChatInboundRequest, GatewayError> {
        Result {
            do { return try OpenAIChatFormat.decodeInboundRequest(json: JSONValue.parse(body, duplicateKeys: .refused)) } catch let e as JSONSyntaxError {
                throw GatewayError.invalidRequest("the request body is not valid JSON (\(e)); send a JSON object like {\"model\":...,\"messages\":[...]}")
            }
        }.mapError { ($0 as? GatewayError) ?? GatewayError.invalidRequest("not a GatewayError: \($0)") }
    }

    static func direct(_ body: [UInt8]) -> Result<OpenAIChatInboundRequest, GatewayError> {
        Result { try OpenAIChatFormat.decodeInboundRequest(body) }
            .mapError { ($0 as? GatewayError) ?? GatewayError.invalidRequest("not a GatewayError: \($0)") }
    }

    /// The messages the reader gives for `messages` (a JSON array's text), or `nil`; and whether the cursor was put
    /// back where the array starts when it gave `nil` (or moved past it when it did not). The cursor refuses a
    /// repeated key, as the body's does.
    static func read(_ messages: String) throws -> (messages: [Message]?, cursorRight: Bool) {
        let document = Array(messages.utf8)
        return try document.withUnsafeBufferPointer { buffer in
            try JSONCursor.read(buffer, duplicateKeys: .refused) { (c) throws(JSONSyntaxError) -> ([Message]?, Bool) in
                let start = c.offset
                let read = InboundMessages.read(&c)
                if read != nil { return (read, c.offset == buffer.count) }
                let right = c.offset == start
                try c.skipValue()
                return (nil, right)
            }
        }
    }

    static func body(_ messages: String, before: String = #""model":"m","#) -> [UInt8] {
        Array(#"{\#(before)"messages":\#(messages),"temperature":0.5}"#.utf8)
    }

    /// Arrays the reader decodes itself: every role, content as text or parts, tool calls and their results.
    static let readable: [String] = [
        #"[{"role":"user","content":"hi"}]"#,
        #"[{"content":"be brief","role":"developer"},{"role":"system","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},{"role":"user","name":"ann","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"https://x/y.png","detail":"low"}}]}]"#,
        #"[{"role":"user","content":"weather?"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Oslo\"}"}},{"id":"c2","type":"function","function":{"name":"time","arguments":{"tz":"CET"}}}]},{"role":"tool","tool_call_id":"c1","content":"rain"},{"role":"tool","tool_call_id":"c2","content":[{"type":"text","text":"12:00"}]},{"role":"assistant","content":[{"type":"refusal","refusal":"no"}],"refusal":null}]"#,
        #"[{"role":"assistant","content":"","tool_calls":null},{"role":"tool","tool_call_id":"unknown","content":"x"},{"role":"user","content":"n\u00e4chste \ud83d\ude00 Frage","extra":{"deep":[1,2,{"a":null}]}}]"#,
    ]

    @Test(arguments: readable)
    func readableArraysDecodeAsTheirTrees(messages: String) throws {
        let read = try Self.read(messages)
        #expect(read.messages != nil, "the reader should decode this array itself")
        #expect(read.cursorRight)
        let body = Self.body(messages)
        let direct = try Self.direct(body).get()
        #expect(direct == (try Self.viaTree(body).get()))
        #expect(read.messages == direct.request.messages)
    }

    /// Arrays the reader gives back to the tree: the cursor where it was, and the body decodes as its tree does.
    static let givenBack: [String] = [
        #"[]"#,
        #"{"role":"user","content":"hi"}"#,
        #"null"#,
        #"[{"role":"user","content":"hi"},"not an object"]"#,
        #"[{"role":"function","content":"x"}]"#,
        #"[{"role":"robot","content":"x"}]"#,
        #"[{"content":"no role"}]"#,
        #"[{"role":"user","content":[{"type":"audio"}]}]"#,
        #"[{"role":"tool","content":"no call id"}]"#,
        #"[{"role":"assistant","tool_calls":[{"id":"c","function":"f"}]}]"#,
        #"[{"role":"user","content":"hi"},{"role":"system"}]"#,
        #"[{"role":"user","content":"hi"}, {"role":"user","content":}]"#,
        #"[{"role":"user","content":"\ud800"}]"#,
    ]

    @Test(arguments: givenBack)
    func otherArraysAreGivenBackToTheTree(messages: String) throws {
        let document = Array(messages.utf8)
        let isJSON = (try? JSONValue.parse(document)) != nil
        if isJSON {
            let read = try Self.read(messages)
            #expect(read.messages == nil)
            #expect(read.cursorRight, "the cursor must be back at the array's start")
        }
        for body in [Self.body(messages), Self.body(messages, before: ""), Self.body(messages, before: #""model":"m","n":2,"#)] {
            switch (Self.direct(body), Self.viaTree(body)) {
            case (.success(let a), .success(let b)): #expect(a == b)
            case (.failure(let a), .failure(let b)):
                #expect(a.message == b.message)
                #expect(a.param == b.param)
            case (let a, let b): Issue.record("read directly: \(a); through the tree: \(b)")
            }
        }
    }

    /// Messages that name one of their members twice, and where the second comes: the reader gives the array back
    /// (the cursor at its start), and the body is refused as its tree is, naming the key and that place.
    static let repeatedMembers: [(messages: String, key: String, offset: Int)] = [
        (#"[{"role":"user","content":"first","content":"second"}]"#, "content", 34),
        (#"[{"role":"user","role":"system","content":"x"}]"#, "role", 16),
        (#"[{"role":"tool","tool_call_id":"a","tool_call_id":"b","content":"x"}]"#, "tool_call_id", 35),
        (#"[{"role":"assistant","tool_calls":[],"tool_calls":[{"id":"c","function":{"name":"f"}}]}]"#, "tool_calls", 37),
        (#"[{"role":"user","content":"hi"},{"role":"user","content":[{"type":"text","text":"a","type":"text"}]}]"#, "type", 84),
        (#"[{"role":"user","content":"hi","name":"a","name":"b"}]"#, "name", 42),
    ]

    @Test(arguments: repeatedMembers)
    func aRepeatedKeyInAMessageGivesTheArrayBackAndIsRefused(messages: String, key: String, offset: Int) throws {
        let document = Array(messages.utf8)
        var givenBack = false
        let read = document.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) in
                try JSONCursor.read(buffer, duplicateKeys: .refused) { (c) throws(JSONSyntaxError) in
                    let start = c.offset
                    givenBack = InboundMessages.read(&c) == nil && c.offset == start
                }
            }
        }
        #expect(givenBack, "the reader must give the array back, the cursor at its start")
        // Given back, the array is then skipped by `read`, which meets the repeated key itself.
        guard case .failure(let error) = read else {
            Issue.record("the repeated key must be refused: \(read)")
            return
        }
        #expect(error.offset == offset)
        let body = Self.body(messages)   // `{"model":"m","messages":` is 24 bytes before the array
        guard case .failure(let direct) = Self.direct(body), case .failure(let tree) = Self.viaTree(body) else {
            Issue.record("both must refuse \(messages)")
            return
        }
        #expect(direct.message == tree.message)
        #expect(direct.status == 400 && direct.param == nil)
        #expect(direct.message.contains("invalid JSON at byte \(offset + 24): the key \"\(key)\" appears twice in one object"), "\(direct.message)")
        #expect(direct.message.contains("send each key once"))
    }

    /// A second `messages` member is refused, whether the first was read directly or not.
    @Test func aSecondMessagesMemberIsRefused() {
        for first in [#"[{"role":"user","content":"first"}]"#, #"[]"#] {
            let body = Array(#"{"model":"m","messages":\#(first),"messages":[{"role":"user","content":"second"}]}"#.utf8)
            guard case .failure(let direct) = Self.direct(body) else {
                Issue.record("a second messages member must be refused")
                continue
            }
            #expect(direct.message.contains(#"the key "messages" appears twice in one object (first at byte 13); send each key once"#), "\(direct.message)")
        }
    }

    /// Nesting inside a message counts against the document's depth limit as it does in the tree.
    @Test func nestingInsideAMessageIsLimitedAsInTheTree() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let body = Self.body(#"[{"role":"user","content":"hi","extra":\#(deep)}]"#)
        guard case .failure(let direct) = Self.direct(body), case .failure(let tree) = Self.viaTree(body) else {
            Issue.record("a body nested 600 deep must be refused")
            return
        }
        #expect(direct.message == tree.message)
        #expect(direct.message.contains("nesting"))
    }
}
