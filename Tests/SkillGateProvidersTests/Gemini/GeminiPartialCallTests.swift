import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Vertex streamed function-call arguments (`partialArgs` with `jsonPath`).
@Suite struct GeminiPartialCallTests {
    @Test(arguments: [
        ("$.id", [GeminiPartialCall.Segment.key("id")]),
        ("$.a.b", [.key("a"), .key("b")]),
        ("$.items[2].name", [.key("items"), .index(2), .key("name")]),
        ("$['odd key']", [.key("odd key")]),
    ])
    func pathsParse(path: String, expected: [GeminiPartialCall.Segment]) {
        #expect(GeminiPartialCall.segments(path) == expected)
    }

    @Test(arguments: ["id", "$.", "$[x]", "$.a[", "$..a"])
    func badPathsAreRejected(_ path: String) {
        #expect(GeminiPartialCall.segments(path) == nil)
    }

    @Test(arguments: ["$", "$.id", "$.a.b", "$.items[2].name", "$['odd key']", "$[\"q\"]", "$['']", "$[']", "$[+5]", "$[-1]",
                      "$[100000]", "$[99999]", "$[ 1]", "$.a[0][1].b", "$.a\r\n.b", "$['\r\n']", "$[\r\n]", "$.é", "$['é']",
                      "id", "$.", "$[x]", "$.a[", "$..a", "$a", "$.a]", "$[1]x", "", "$.a[0]['b c'].d"])
    func bytesAndCharactersReadPathsAlike(_ path: String) {
        #expect(GeminiPartialCall.segments(path) == GeminiPartialCall.characterSegments(path))
    }

    @Test func fragmentsBuildNestedArguments() throws {
        var call = GeminiPartialCall(ordinal: 0, args: JSONObject())
        let fragments: JSONValue = [
            ["jsonPath": "$.query", "stringValue": "obj", "willContinue": true],
            ["jsonPath": "$.query", "stringValue": "ect store"],
            ["jsonPath": "$.filters.limit", "numberValue": 5],
            ["jsonPath": "$.tags[1]", "stringValue": "b"],
            ["jsonPath": "$.tags[0]", "stringValue": "a"],
            ["jsonPath": "$.exact", "boolValue": true],
        ]
        try call.apply(fragments, provider: "gemini")
        #expect(JSONValue.object(call.args).serialized()
                == #"{"query":"object store","filters":{"limit":5},"tags":["a","b"],"exact":true}"#)
    }

    @Test func streamedCallFoldsAndAStrayCloseMarkerIsIgnored() throws {
        let chunks = [
            #"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"search","willContinue":true}}]}}],"responseId":"r"}"#,
            #"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.q","stringValue":"Zur","willContinue":true}],"willContinue":true}}]}}],"responseId":"r"}"#,
            #"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.q","stringValue":"ich"}],"willContinue":true}}]}}],"responseId":"r"}"#,
            #"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]}}],"responseId":"r"}"#,
            #"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]}}],"responseId":"r"}"#,
            #"{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}],"responseId":"r"}"#,
        ]
        let body = Array(chunks.map { "data: \($0)\r\n\r\n" }.joined().utf8)
        let whole = try StreamFeeding.whole(GeminiTest.translator(), body)
        #expect(whole == (try StreamFeeding.byteByByte(GeminiTest.translator(), body)))
        let response = StreamFeeding.response(whole)
        #expect(response.toolCalls == [ToolCall(id: "call_r_0", name: "search", arguments: #"{"q":"Zurich"}"#)])
        #expect(response.finishReason == .toolCalls)
    }

    @Test func unreadablePathThrows() {
        var call = GeminiPartialCall(ordinal: 0, args: JSONObject())
        #expect(throws: GatewayError.self) { try call.apply([["jsonPath": "nope", "stringValue": "x"]], provider: "gemini") }
    }
}
