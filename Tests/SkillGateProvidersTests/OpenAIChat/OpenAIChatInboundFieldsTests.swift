import Testing
import SkillGateCore
@testable import SkillGateProviders

/// The body's top level read straight into the members decoding reads: each key maps to its member, a repeated key is
/// refused, and a body decodes as its tree does, with the errors in the tree decoder's order.
@Suite struct OpenAIChatInboundFieldsTests {
    /// The member a key in a document names, as the body reader sees the key.
    static func named(_ key: String) throws -> OpenAIChatInboundFields.Member? {
        let document = Array("{\"\(key)\":0}".utf8)
        return try document.withUnsafeBufferPointer { buffer in
            try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) -> OpenAIChatInboundFields.Member? in
                var member: OpenAIChatInboundFields.Member?
                _ = try c.readObject { (_, key) throws(JSONSyntaxError) in member = OpenAIChatInboundFields.Member.named(key) }
                return member
            }
        }
    }

    @Test func everyMemberIsNamedByItsKeyAndKeptInItsOwnSlot() throws {
        var fields = OpenAIChatInboundFields()
        for member in OpenAIChatInboundFields.Member.allCases {
            #expect(try Self.named(member.key) == member)
            fields[member] = .string(member.key)
        }
        for member in OpenAIChatInboundFields.Member.allCases {
            #expect(fields[member] == .string(member.key), "\(member) must have a slot of its own")
        }
        for other in ["Model", "model ", "mode", "tool", "max_token", "", "stream_option", "metadata"] {
            #expect(try Self.named(other) == nil, "\(other) is not a member decoding reads")
        }
        // A tree's members are looked up by the same keys.
        let object = JSONObject(OpenAIChatInboundFields.Member.allCases.map { JSONObject.Member(key: $0.key, value: .string($0.key)) })
        let fromTree = OpenAIChatInboundFields(object)
        for member in OpenAIChatInboundFields.Member.allCases { #expect(fromTree[member] == .string(member.key)) }
    }

    /// Bodies that decode, with members in any order and unknown ones.
    static let accepted: [String] = [
        #"{"max_tokens":9,"stream":true,"messages":[{"role":"user","content":"hi"}],"model":"m","stream_options":{"include_usage":true}}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"unknown":{"deep":[1,{"x":null}]},"metadata":{},"n":1,"functions":null}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":5,"max_tokens":7,"top_p":0.5,"stop":["a","b"],"user":"u","prompt_cache_key":"k","reasoning_effort":"minimal","parallel_tool_calls":false,"response_format":{"type":"json_object"}}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}],"tool_choice":{"type":"function","function":{"name":"f"}}}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"safety_identifier":"alice","user":"u"}"#,
        #"{"m\u006fdel":"escaped key","messages":[{"role":"user","content":"hi"}]}"#,
    ]

    @Test(arguments: accepted)
    func bodiesDecodeAsTheirTrees(text: String) throws {
        let body = Array(text.utf8)
        let direct = try OpenAIChatInboundMessagesReaderTests.direct(body).get()
        #expect(direct == (try OpenAIChatInboundMessagesReaderTests.viaTree(body).get()))
    }

    /// Bodies with errors (several in some; a repeated key among them): the same first error as the tree decoder's,
    /// whatever the members' order.
    static let refused: [String] = [
        #"{"model":"first","model":"second","messages":[{"role":"user","content":"hi"}],"temperature":0.1,"temperature":"ignored"}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}],"tool_choice":{"type":"function","function":{"name":"f"}},"tools":"ignored"}"#,
        #"{"temperature":0.1,"m\u006fdel":"escaped key","messages":[{"role":"user","content":"hi"}],"model":"m"}"#,
        #"{"temperature":"hot","model":5,"messages":[]}"#,
        #"{"messages":[{"role":"robot"}],"n":3,"model":"m"}"#,
        #"{"stream":"yes","tools":{},"model":"m","messages":[{"role":"user","content":"hi"}]}"#,
        #"{"tool_choice":{"function":{"name":"nope"}},"model":"m","messages":[{"role":"user","content":"hi"}]}"#,
        #"{"functions":[],"model":"m"}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":0,"max_completion_tokens":null}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"stream_options":[true]}"#,
        #"{"model":"m","model":7,"messages":"hi"}"#,
        #"{"model":7,"model":"m","messages":[{"role":"user","content":"hi"}]}"#,
        #"["model","m"]"#,
        #""just text""#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"unknown":[1,2,}"#,
        #"{"model":"m"} {"#,
    ]

    @Test(arguments: refused)
    func errorsComeAsFromTheTree(text: String) {
        let body = Array(text.utf8)
        guard case .failure(let direct) = OpenAIChatInboundMessagesReaderTests.direct(body),
              case .failure(let tree) = OpenAIChatInboundMessagesReaderTests.viaTree(body) else {
            Issue.record("both must refuse \(text)")
            return
        }
        #expect(direct.message == tree.message)
        #expect(direct.param == tree.param)
        #expect(direct.status == 400)
    }
}
