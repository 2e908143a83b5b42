import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

@Suite struct GeminiRequestTests {
    let simple = ChatRequest(model: "gemini-2.5-flash", messages: [Message(role: .user, text: "Hi")])

    func body(_ request: ChatRequest) throws -> JSONValue {
        let http = try GeminiFormat().makeRequest(request, deployment: GeminiTest.deployment, stream: false)
        return try JSONValue.parse(http.body)
    }

    @Test func urlCarriesNoKeyAndAskForSSEWhenStreaming() throws {
        let key = GeminiTest.deployment.apiKey!
        let streaming = try GeminiFormat().makeRequest(simple, deployment: GeminiTest.deployment, stream: true)
        #expect(streaming.url == "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse")
        #expect(!streaming.url.contains(key) && !streaming.url.contains("key="))
        #expect(streaming.headers["x-goog-api-key"] == key)
        #expect(streaming.headers["accept"] == "text/event-stream")
        let unary = try GeminiFormat().makeRequest(simple, deployment: GeminiTest.deployment, stream: false)
        #expect(unary.url.hasSuffix("/models/gemini-2.5-flash:generateContent"))
        #expect(!unary.url.contains(key))
        #expect(!String(decoding: unary.body, as: UTF8.self).contains(key))
    }

    @Test func schemaIsSanitisedRecursively() {
        let schema: JSONValue = [
            "$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "additionalProperties": false,
            "strict": true, "$defs": ["Place": ["type": "object", "properties": ["city": ["type": "string"]],
                                                "required": ["city"], "additionalProperties": false]],
            "properties": [
                "where": ["$ref": "#/$defs/Place"],
                "tags": ["type": "array", "items": ["type": "string", "minLength": 1, "examples": ["a"]]],
                "when": ["type": "string", "format": "date", "description": "Day"],
                "at": ["type": "string", "format": "date-time"],
                "mode": ["const": "fast"],
                "level": ["type": "integer", "enum": [1, 2, 3]],
                "note": ["type": ["string", "null"]],
                "choice": ["anyOf": [["type": "string"], ["type": "null"]]],
                "either": ["oneOf": [["type": "string"], ["type": "object", "properties": ["x": ["type": "number", "exclusiveMinimum": 0]],
                                                                  "additionalProperties": ["type": "string"]]]],
                "nested": ["type": "object", "properties": ["deep": ["type": "array", "items": ["$ref": "#/$defs/Place"]]]],
                "empty": ["type": "object", "properties": [:], "patternProperties": ["^x": ["type": "string"]]],
            ],
            "required": ["where", "missing"],
        ]
        let place: JSONValue = ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]]
        let expected: JSONValue = [
            "type": "object",
            "properties": [
                "where": place,
                "tags": ["type": "array", "items": ["type": "string", "minLength": 1]],
                "when": ["type": "string", "description": "Day (format: date)"],
                "at": ["type": "string", "format": "date-time"],
                "mode": ["enum": ["fast"], "type": "string"],
                "level": ["type": "integer", "enum": ["1", "2", "3"]],
                "note": ["type": "string", "nullable": true],
                "choice": ["type": "string", "nullable": true],
                "either": ["anyOf": [["type": "string"], ["type": "object", "properties": ["x": ["type": "number"]]]]],
                "nested": ["type": "object", "properties": ["deep": ["type": "array", "items": place]]],
                "empty": ["type": "object"],
            ],
            "required": ["where"],
        ]
        #expect(GeminiSchemaSanitizer.sanitize(schema) == expected)
    }

    @Test func recursiveRefsStop() {
        let schema: JSONValue = ["$defs": ["Node": ["type": "object", "properties": ["next": ["$ref": "#/$defs/Node"]]]],
                                 "$ref": "#/$defs/Node"]
        let expected: JSONValue = ["type": "object", "properties": ["next": ["type": "object"]]]
        #expect(GeminiSchemaSanitizer.sanitize(schema) == expected)
    }

    /// Definitions that each refer to the next twice grow the inlined schema as 2^depth: a 2 KB tool with 20 levels
    /// became a 64 MB request and 475 MB of memory. Past `maxExpandedNodes` a `$ref` is no longer inlined (decision
    /// 0112): the schema stays bounded, the model still sees the structure near the root.
    @Test(arguments: [20, 30])
    func referencesThatFanOutStayBounded(depth: Int) {
        var defs = JSONObject()
        for i in 0..<depth {
            let next: JSONValue = ["$ref": .string("#/$defs/D\(i + 1)")]
            defs.append("D\(i)", ["type": "object", "properties": ["p0": next, "p1": next]])
        }
        defs.append("D\(depth)", ["type": "string"])
        let schema: JSONValue = ["$defs": .object(defs), "$ref": "#/$defs/D0"]
        let clock = ContinuousClock()
        let start = clock.now
        let out = GeminiSchemaSanitizer.sanitize(schema)
        let bytes = out.serialized().utf8.count
        #expect(bytes < 2 << 20, "\(bytes) bytes")
        #expect(clock.now - start < .seconds(5))
        #expect(out.serialized().contains("not expanded, the schema's references expand past"))
        // Near the root the structure is kept.
        #expect(out["properties"]?["p0"]?["properties"]?["p1"]?["type"] == "object")
    }

    /// A definition used in many places is still inlined everywhere while the budget lasts (linear growth is fine).
    @Test func aSharedDefinitionIsInlinedEverywhere() {
        var props = JSONObject()
        for i in 0..<50 { props.append("a\(i)", ["$ref": "#/$defs/Address"]) }
        let schema: JSONValue = ["$defs": ["Address": ["type": "object", "properties": ["street": ["type": "string"], "city": ["type": "string"]]]],
                                 "type": "object", "properties": .object(props)]
        let out = GeminiSchemaSanitizer.sanitize(schema)
        #expect(out["properties"]?["a49"]?["properties"]?["city"]?["type"] == "string")
        #expect(!out.serialized().contains("not expanded"))
    }

    static let choices: [(ToolChoice, JSONValue)] = [
        (.auto, ["mode": "AUTO"]),
        (.none, ["mode": "NONE"]),
        (.required, ["mode": "ANY"]),
        (.named("get_weather"), ["mode": "ANY", "allowedFunctionNames": ["get_weather"]]),
    ]

    @Test(arguments: choices)
    func toolChoiceMapping(choice: ToolChoice, expected: JSONValue) throws {
        var request = simple
        request.tools = [ToolDefinition(name: "get_weather", parameters: ["type": "object", "properties": ["city": ["type": "string"]]])]
        request.toolChoice = choice
        #expect(try body(request)["toolConfig"]?["functionCallingConfig"] == expected)
    }

    @Test func namedChoiceMustBeOffered() {
        var request = simple
        request.tools = [ToolDefinition(name: "a")]
        request.toolChoice = .named("b")
        #expect(throws: GatewayError.self) { try body(request) }
    }

    @Test func toolsWithoutParametersOmitThem() throws {
        var request = simple
        request.tools = [ToolDefinition(name: "now", description: "Current time")]
        let declarations = try body(request)["tools"]?.arrayValue?.first?["functionDeclarations"]
        #expect(declarations == [["name": "now", "description": "Current time"]])
    }

    @Test func generationConfigAndSystem() throws {
        var request = simple
        request.messages.insert(Message(role: .system, text: "Be brief."), at: 0)
        request.maxTokens = 256
        request.temperature = 0.2
        request.topP = 0.9
        request.stopSequences = ["END"]
        request.thinking = ThinkingConfig(enabled: true, budgetTokens: 1024)
        request.responseFormat = ["type": "json_schema", "json_schema": ["name": "r", "strict": true,
                                  "schema": ["type": "object", "additionalProperties": false, "properties": ["a": ["type": "string"]]]]]
        let b = try body(request)
        #expect(b["systemInstruction"] == ["parts": [["text": "Be brief."]]])
        #expect(b["contents"] == [["role": "user", "parts": [["text": "Hi"]]]])
        #expect(b["generationConfig"] == [
            "maxOutputTokens": 256, "temperature": 0.2, "topP": 0.9, "stopSequences": ["END"],
            "responseMimeType": "application/json", "responseSchema": ["type": "object", "properties": ["a": ["type": "string"]]],
            "thinkingConfig": ["includeThoughts": true, "thinkingBudget": 1024],
        ])
        request.thinking = ThinkingConfig(enabled: false)
        #expect(try body(request)["generationConfig"]?["thinkingConfig"] == ["thinkingBudget": 0])
    }

    @Test func consecutiveResultsMergeAndNamesComeFromTheCall() throws {
        let request = ChatRequest(model: "m", messages: [
            Message(role: .user, text: "Weather in Bern and Zug?"),
            Message(role: .assistant, content: [
                .toolCall(ToolCall(id: "c1", name: "get_weather", arguments: #"{"city":"Bern"}"#, signature: "sig1")),
                .toolCall(ToolCall(id: "c2", name: "get_weather", arguments: #"{"city":"Zug"}"#)),
            ]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "c1", text: #"{"temp":21}"#))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "c2", text: "timeout", isError: true))]),
        ])
        let contents = try body(request)["contents"]?.arrayValue ?? []
        #expect(contents.count == 3)
        #expect(contents[1] == ["role": "model", "parts": [
            ["functionCall": ["name": "get_weather", "args": ["city": "Bern"], "id": "c1"], "thoughtSignature": "sig1"],
            ["functionCall": ["name": "get_weather", "args": ["city": "Zug"], "id": "c2"]],
        ]])
        #expect(contents[2] == ["role": "user", "parts": [
            ["functionResponse": ["id": "c1", "name": "get_weather", "response": ["temp": 21]]],
            ["functionResponse": ["id": "c2", "name": "get_weather", "response": ["error": "timeout"]]],
        ]])
    }

    @Test func resultWithoutNameOrCallIsRejected() {
        let request = ChatRequest(model: "m", messages: [
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "nope", text: "x"))]),
        ])
        #expect { try body(request) } throws: { ($0 as? GatewayError)?.param == "messages[0].content[0]" }
    }

    @Test func invalidCallArgumentsAreRejected() {
        let request = ChatRequest(model: "m", messages: [
            Message(role: .assistant, content: [.toolCall(ToolCall(id: "c", name: "f", arguments: "{\"a\":"))]),
        ])
        #expect(throws: GatewayError.self) { try body(request) }
    }

    @Test func imagesAndThinking() throws {
        let request = ChatRequest(model: "m", messages: [
            Message(role: .user, content: [
                .image(.base64(mediaType: "image/png", data: "iVBORw0KGgo=")),
                .image(.url("data:image/jpeg;base64,/9j/4AAQ")),
                .image(.url("https://example.com/cat.webp")),
            ]),
            Message(role: .assistant, content: [
                .thinking(Thinking(text: "Let me look.", signature: "s1")),
                .text("A cat."),
                .thinking(Thinking(text: "", signature: "s2")),
                .thinking(Thinking(text: "", redactedData: "opaque")),
            ]),
        ])
        let contents = try body(request)["contents"]?.arrayValue ?? []
        #expect(contents[0]["parts"] == [
            ["inlineData": ["mimeType": "image/png", "data": "iVBORw0KGgo="]],
            ["inlineData": ["mimeType": "image/jpeg", "data": "/9j/4AAQ"]],
            ["fileData": ["mimeType": "image/webp", "fileUri": "https://example.com/cat.webp"]],
        ])
        #expect(contents[1]["parts"] == [
            ["text": "Let me look.", "thought": true, "thoughtSignature": "s1"],
            ["text": "A cat.", "thoughtSignature": "s2"],
        ])
    }

    @Test func gemini3TurnsWithoutSignaturesGetTheSentinel() throws {
        let request = ChatRequest(model: "gemini-3-pro-preview", messages: [
            Message(role: .user, text: "Weather?"),
            Message(role: .assistant, content: [
                .toolCall(ToolCall(id: "a", name: "w", arguments: "{}")),
                .toolCall(ToolCall(id: "b", name: "w", arguments: "{}")),
            ]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "a", text: "1")), .toolResult(ToolResult(callId: "b", text: "2"))]),
            Message(role: .assistant, content: [.toolCall(ToolCall(id: "c", name: "w", arguments: "{}", signature: "real"))]),
        ])
        let signatures = { (b: JSONValue) -> [[String?]] in
            (b["contents"]?.arrayValue ?? []).filter { $0["role"] == "model" }.map { turn in
                (turn["parts"]?.arrayValue ?? []).map { $0["thoughtSignature"]?.stringValue }
            }
        }
        let deployment3 = Deployment(providerId: "gemini", model: "gemini-3-pro-preview", baseURL: "http://127.0.0.1:1", auth: .xGoogApiKey)
        let b3 = try JSONValue.parse(try GeminiFormat().makeRequest(request, deployment: deployment3, stream: false).body)
        #expect(signatures(b3) == [["skip_thought_signature_validator", nil], ["real"]])
        #expect(signatures(try body(request)) == [[nil, nil], ["real"]])  // gemini-2.5-flash: left alone
    }

    /// Gemini 3 and every later major version get the sentinel; earlier ones and other names do not (decision 0112).
    @Test(arguments: [("gemini-3-pro-preview", true), ("gemini-3.5-flash-lite", true), ("gemini-4-carbon", true),
                      ("models/gemini-4-neon", true), ("gemini-10-ultra", true), ("gemini-2.5-flash", false),
                      ("gemini-1.5-pro", false), ("gemini-flash-latest", false), ("gemma-3-27b", false), ("gemini-", false)])
    func laterMajorVersionsCheckSignatures(model: String, checks: Bool) {
        #expect(GeminiFormat.checksThoughtSignatures(model) == checks)
    }

    @Test(arguments: [("models/gemini-2.5-pro", "/models/gemini-2.5-pro:generateContent"),
                      ("tunedModels/my-model-1", "/tunedModels/my-model-1:generateContent")])
    func modelPrefixes(model: String, suffix: String) throws {
        var d = GeminiTest.deployment
        d.model = model
        #expect(try GeminiFormat().url(for: d, stream: false) == d.baseURL + suffix)
    }

    @Test(arguments: ["gemini?key=x", "a/b", "gemini 2", "", "x#y"])
    func modelIdsThatWouldChangeTheURLAreRejected(_ model: String) {
        var d = GeminiTest.deployment
        d.model = model
        #expect(throws: GatewayError.self) { try GeminiFormat().makeRequest(simple, deployment: d, stream: true) }
    }
}
