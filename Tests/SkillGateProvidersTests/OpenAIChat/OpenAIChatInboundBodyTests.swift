import Testing
import SkillGateCore
@testable import SkillGateProviders

/// The inbound body is read as `JSONValue.parse(_:duplicateKeys: .refused)` reads it, with each tool's schema kept as
/// text: the same request, the same errors, a repeated key refused wherever it is.
@Suite struct OpenAIChatInboundBodyTests {
    static func body(tools: String) -> [UInt8] {
        Array(#"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":\#(tools)}"#.utf8)
    }

    @Test func schemasAreKeptAsTextAndDecodeAsTheTreeDoes() throws {
        let body = Self.body(tools: """
            [ {"type": "function", "function": {"name": "a", "parameters": {"type": "object",
              "properties": {"city": {"type": "string"}}}}},
              {"type":"function","function":{"name":"b","parameters":{"q":"say \\"x\\""}}},
              {"type":"function","function":{"name":"c"}} ]
            """)
        let request = try OpenAIChatFormat.decodeInboundRequest(body).request
        let viaTree = try OpenAIChatFormat.decodeInboundRequest(json: JSONValue.parse(body)).request
        #expect(request == viaTree)
        #expect(request.tools.map(\.schema.isText) == [true, true, true])   // an escape's schema is its tree written out
        #expect(request.tools[0].schema.compactText == Array(#"{"type":"object","properties":{"city":{"type":"string"}}}"#.utf8))
        #expect(request.tools[1].parameters == ["q": "say \"x\""])
    }

    /// A repeated key in the tools, at each level the reader looks into or keeps as text: refused, naming the key.
    @Test(arguments: [
        (#"[{"type":"function","function":{"name":"a","parameters":{"first":1},"parameters":{"second":2}}}]"#, "parameters"),
        (#"[{"type":"function","function":{"name":"a"},"function":{"name":"b"}}]"#, "function"),
        (#"[{"type":"function","function":{"name":"a","name":"b"}}]"#, "name"),
        (#"[{"type":"function","function":{"name":"a","parameters":{"type":"object","properties":{"q":{"type":"string","type":"integer"}}}}}]"#, "type"),
    ])
    func aRepeatedKeyInTheToolsIsRefused(tools: String, key: String) {
        let body = Self.body(tools: tools)
        do {
            _ = try OpenAIChatFormat.decodeInboundRequest(body)
            Issue.record("a repeated \(key) must be refused")
        } catch let error as GatewayError {
            #expect(error.status == 400)
            #expect(error.message.contains("the key \"\(key)\" appears twice in one object"), "\(error.message)")
        } catch {
            Issue.record("not a GatewayError: \(error)")
        }
    }

    static let badBodies: [String] = [
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a","parameters":{"x":}}}]}"#,
        #"{"model":"m","messages":[],"tools":[{"function":{"parameters":{"a":"\ud800"}}}]}"#,
        #"{"model":"m","tools":[{"function":{"parameters":{"a":1}}} "#,
        #"{"model":"m","tools":[{"function":{"parameters":{"a":1}}}]} trailing"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a","parameters":[1,2]}}]}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":{"function":{"parameters":{}}}}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":"a"}]}"#,
        #"[{"tools":[{"function":{"parameters":{}}}]}]"#,
        String(repeating: "[", count: 300),
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a","parameters":{"x":1,"x":2}}}]}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a"}}],"tools":[]}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi","content":"again"}]}"#,
    ]

    /// Malformed JSON and wrongly shaped tools: the same 400 (message and field) as decoding the parsed tree.
    @Test(arguments: badBodies)
    func badBodiesFailAsTheTreeDecoderFails(text: String) {
        let body = Array(text.utf8)
        let viaTree: Result<OpenAIChatInboundRequest, GatewayError> = Result {
            do { return try OpenAIChatFormat.decodeInboundRequest(json: JSONValue.parse(body, duplicateKeys: .refused)) } catch let e as JSONSyntaxError {
                throw GatewayError.invalidRequest("the request body is not valid JSON (\(e)); send a JSON object like {\"model\":...,\"messages\":[...]}")
            }
        }.mapError { ($0 as? GatewayError) ?? GatewayError.invalidRequest("not a GatewayError: \($0)") }
        let direct = Result { try OpenAIChatFormat.decodeInboundRequest(body) }.mapError { ($0 as? GatewayError) ?? GatewayError.invalidRequest("not a GatewayError: \($0)") }
        guard case .failure(let expected) = viaTree, case .failure(let got) = direct else {
            Issue.record("both must fail: \(viaTree) / \(direct)")
            return
        }
        #expect(got.message == expected.message)
        #expect(got.param == expected.param)
        #expect(got.status == 400)
    }
}
