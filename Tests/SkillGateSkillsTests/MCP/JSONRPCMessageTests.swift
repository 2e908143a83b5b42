import SkillGateCore
import Testing
@testable import SkillGateSkills

@Suite struct JSONRPCMessageTests {
    @Test(arguments: [
        (#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, JSONRPCMessage.request(id: .number(1), method: "tools/list", params: nil)),
        (#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}"#, .request(id: .string("a"), method: "tools/call", params: ["name": "x"])),
        (#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, .notification(method: "notifications/initialized", params: nil)),
        (#"{"jsonrpc":"2.0","id":7,"result":{}}"#, .result(id: .number(7), result: .object([:]))),
        (#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no"}}"#, .error(id: .number(7), error: JSONRPCError(code: -32601, message: "no"))),
        (#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad","data":1}}"#, .error(id: nil, error: JSONRPCError(code: -32700, message: "bad", data: 1))),
    ])
    func decodesEveryKindOfMessage(_ text: String, _ expected: JSONRPCMessage) throws {
        let decoded = try JSONRPCMessage.decode(Array(text.utf8))
        #expect(decoded == expected)
        // What the writer makes reads back the same.
        #expect(try JSONRPCMessage.decode(decoded.bytes) == expected)
    }

    @Test(arguments: [
        ("{not json", JSONRPCError.parseError, "not JSON"),
        ("", JSONRPCError.parseError, "not JSON"),
        (#"[{"jsonrpc":"2.0","id":1,"method":"a"}]"#, JSONRPCError.invalidRequest, "batches"),
        (#""hello""#, JSONRPCError.invalidRequest, "expected an object"),
        (#"{"id":1,"method":"a"}"#, JSONRPCError.invalidRequest, "\"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":"1.0","id":1,"method":"a"}"#, JSONRPCError.invalidRequest, "\"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":"2.0","id":true,"method":"a"}"#, JSONRPCError.invalidRequest, "string or an integer"),
        (#"{"jsonrpc":"2.0","id":1,"method":""}"#, JSONRPCError.invalidRequest, "non-empty string"),
        (#"{"jsonrpc":"2.0","id":1,"method":"a","params":3}"#, JSONRPCError.invalidRequest, "\"params\" must be"),
        (#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}"#, JSONRPCError.invalidRequest, "both"),
        (#"{"jsonrpc":"2.0","result":1}"#, JSONRPCError.invalidRequest, "needs the \"id\""),
        (#"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#, JSONRPCError.invalidRequest, "integer \"code\""),
        (#"{"jsonrpc":"2.0","id":1}"#, JSONRPCError.invalidRequest, "neither"),
    ])
    func rejectsWhatIsNotJSONRPCWithTheRightCode(_ text: String, _ code: Int, _ says: String) {
        #expect {
            _ = try JSONRPCMessage.decode(Array(text.utf8))
        } throws: { error in
            guard let e = error as? JSONRPCError else { return false }
            return e.code == code && e.message.contains(says)
        }
    }

    @Test func anInvalidRequestCarriesItsIdSoTheServerCanAnswerIt() {
        #expect {
            _ = try JSONRPCMessage.decode(Array(#"{"jsonrpc":"1.0","id":42,"method":"a"}"#.utf8))
        } throws: { error in
            (error as? JSONRPCError)?.data == .int(42)
        }
    }

    @Test func encodesErrorsWithANullIdWhenTheIdIsUnknown() {
        let text = JSONRPCMessage.error(id: nil, error: JSONRPCError(code: -32700, message: "m")).json.serialized()
        #expect(text == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#)
    }
}
