import SkillGateCore
@testable import SkillGateProviders

/// The `generateContent` request body as it was built before decision 0067: a tree (each tool's schema parsed into one
/// and sanitised), then serialised. Kept here as the oracle `GeminiFormat.requestBodyBytes` is compared
/// with (changed since only to add the sampling controls of decision 0094). The model-family check, the sentinel and the schema sanitiser are the format's own, which the writer also uses.
enum GeminiRequestTreeReference {
    /// The JSON body of a `generateContent` request for `request`.
    ///
    /// - System messages (wherever they are) are hoisted into `systemInstruction`.
    /// - Roles: user → `user`, assistant → `model`, tool → `user` with `functionResponse` parts;
    ///   consecutive tool-result turns are merged into one turn (Gemini wants all responses to one
    ///   step together). Other turns are kept as they are.
    /// - Thinking: text with `thought: true` (+ `thoughtSignature`); a thinking block with a
    ///   signature and no text (Gemini puts signatures on ordinary parts too) is folded back onto the
    ///   text part before it, or sent as `{"text":"","thoughtSignature":…}` as Gemini itself sends it.
    ///   Redacted thinking from other providers cannot be replayed to Gemini and is left out.
    /// - Gemini 3 models reject a replayed model turn whose function calls carry no thought
    ///   signature (history rebuilt by a client, or calls made by another provider). For those
    ///   models, such a turn's first call gets Google's documented sentinel
    ///   `skip_thought_signature_validator`; real signatures are never replaced.
    /// Throws a caller `GatewayError` naming the field when the request cannot be expressed.
    /// `model` is the deployment's model id (defaults to `request.model`).
    static func requestBody(_ request: ChatRequest, model: String? = nil) throws -> JSONValue {
        var body = JSONObject()
        let needsSignatures = GeminiFormat.checksThoughtSignatures(model ?? request.model)
        body.append("contents", .array(try contents(of: request.messages, fillMissingSignatures: needsSignatures)))
        if let system = request.systemText {
            body.append("systemInstruction", ["parts": [["text": .string(system)]]])
        }
        if !request.tools.isEmpty {
            body.append("tools", [["functionDeclarations": .array(request.tools.map(functionDeclaration))]])
            if let choice = request.toolChoice {
                body.append("toolConfig", ["functionCallingConfig": try callingConfig(choice, tools: request.tools)])
            }
        }
        let generation = try generationConfig(request)
        if !generation.isEmpty { body.append("generationConfig", .object(generation)) }
        return .object(body)
    }



    static func contents(of messages: [Message], fillMissingSignatures: Bool = false) throws -> [JSONValue] {
        var turns: [JSONValue] = []
        var lastWasResults = false
        var callNames: [String: String] = [:]
        for (i, message) in messages.enumerated() where message.role != .system {
            var parts: [JSONValue] = []
            for (j, block) in message.content.enumerated() {
                try appendPart(block, to: &parts, callNames: &callNames, field: "messages[\(i)].content[\(j)]")
            }
            guard !parts.isEmpty else { continue }
            if fillMissingSignatures, message.role == .assistant { fillMissingSignature(&parts) }
            let isResults = message.role == .tool || message.content.allSatisfy { $0.toolResult != nil }
            if isResults, lastWasResults, case .object(var previous) = turns[turns.count - 1],
               let previousParts = previous["parts"]?.arrayValue {
                previous["parts"] = .array(previousParts + parts)
                turns[turns.count - 1] = .object(previous)
                continue
            }
            lastWasResults = isResults
            turns.append(["role": message.role == .assistant ? "model" : "user", "parts": .array(parts)])
        }
        return turns
    }

    private static func appendPart(_ block: ContentBlock, to parts: inout [JSONValue],
                                   callNames: inout [String: String], field: String) throws {
        switch block {
        case .text(let text):
            parts.append(["text": .string(text)])
        case .image(let source):
            parts.append(imagePart(source))
        case .toolCall(let call):
            callNames[call.id] = call.name
            parts.append(try functionCallPart(call, field: field))
        case .toolResult(let result):
            guard let name = result.name ?? callNames[result.callId] else {
                throw GatewayError.invalidRequest(
                    "The tool result for call '\(result.callId)' has no tool name and no earlier tool call has that id; "
                        + "Gemini needs the function name. Send the tool name with the result or keep the assistant turn that made the call.",
                    param: field)
            }
            parts.append(functionResponsePart(result, name: name))
        case .thinking(let thinking):
            appendThinking(thinking, to: &parts)
        }
    }

    /// Puts the sentinel on the first call of a model turn in which no call has a signature.
    private static func fillMissingSignature(_ parts: inout [JSONValue]) {
        let calls = parts.indices.filter { parts[$0]["functionCall"] != nil }
        guard let first = calls.first, !calls.contains(where: { parts[$0]["thoughtSignature"] != nil }),
              case .object(var part) = parts[first] else { return }
        part.append("thoughtSignature", .string(GeminiFormat.signatureSentinel))
        parts[first] = .object(part)
    }

    private static func appendThinking(_ thinking: Thinking, to parts: inout [JSONValue]) {
        guard thinking.redactedData == nil else { return }
        if !thinking.text.isEmpty {
            var part: JSONObject = ["text": .string(thinking.text), "thought": true]
            part.append("thoughtSignature", ifPresent: thinking.signature.map(JSONValue.string))
            parts.append(.object(part))
            return
        }
        guard let signature = thinking.signature else { return }
        if case .object(var previous)? = parts.last, previous["text"] != nil,
           previous["thought"] == nil, previous["thoughtSignature"] == nil {
            previous.append("thoughtSignature", .string(signature))
            parts[parts.count - 1] = .object(previous)
        } else {
            parts.append(["text": "", "thoughtSignature": .string(signature)])
        }
    }

    static func imagePart(_ source: ImageSource) -> JSONValue {
        switch ImageSource.fromURL(source.urlString) {
        case .base64(let mediaType, let data):
            return ["inlineData": ["mimeType": .string(mediaType), "data": .string(data)]]
        case .url(let url):
            var file: JSONObject = [:]
            if let mime = guessedMimeType(url) { file.append("mimeType", .string(mime)) }
            file.append("fileUri", .string(url))
            return ["fileData": .object(file)]
        }
    }

    private static func guessedMimeType(_ url: String) -> String? {
        let path = url.split(separator: "?").first.map(String.init)?.lowercased() ?? ""
        let types = [".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
                     ".webp": "image/webp", ".heic": "image/heic", ".pdf": "application/pdf"]
        return types.first { path.hasSuffix($0.key) }?.value
    }

    private static func functionCallPart(_ call: ToolCall, field: String) throws -> JSONValue {
        guard let args = call.parsedArguments, args.objectValue != nil else {
            throw GatewayError.invalidRequest(
                "The arguments of tool call '\(call.id)' (\(call.name)) are not a JSON object; Gemini needs an object. "
                    + "Fix or drop that tool call in the conversation history.", param: field)
        }
        var function: JSONObject = ["name": .string(call.name), "args": args]
        if !call.id.isEmpty { function.append("id", .string(call.id)) }
        var part: JSONObject = ["functionCall": .object(function)]
        part.append("thoughtSignature", ifPresent: call.signature.map(JSONValue.string))
        return .object(part)
    }

    /// `{"functionResponse":{"id","name","response"}}`: a result whose text is a JSON object is sent
    /// as that object; other text as `{"result": text}`; failures as `{"error": text}`.
    private static func functionResponsePart(_ result: ToolResult, name: String) -> JSONValue {
        let text = result.text
        let response: JSONValue
        if result.isError {
            response = ["error": .string(text)]
        } else if text.utf8.first == UInt8(ascii: "{"), let object = try? JSONValue.parse(text), object.objectValue != nil {
            response = object
        } else {
            response = ["result": .string(text)]
        }
        var function: JSONObject = [:]
        if !result.callId.isEmpty { function.append("id", .string(result.callId)) }
        function.append("name", .string(name))
        function.append("response", response)
        return ["functionResponse": .object(function)]
    }

    private static func functionDeclaration(_ tool: ToolDefinition) -> JSONValue {
        var declaration: JSONObject = ["name": .string(tool.name)]
        declaration.append("description", ifPresent: tool.description.map(JSONValue.string))
        let parameters = GeminiSchemaSanitizer.sanitize(tool.parameters)
        // Gemini rejects an OBJECT schema with empty properties; a tool without parameters omits them.
        if parameters["properties"] != nil || parameters["type"]?.stringValue?.lowercased() != "object" {
            declaration.append("parameters", parameters)
        }
        return .object(declaration)
    }

    /// `auto` → AUTO, `none` → NONE, `required` → ANY, `named(n)` → ANY with `allowedFunctionNames: [n]`.
    static func callingConfig(_ choice: ToolChoice, tools: [ToolDefinition]) throws -> JSONValue {
        switch choice {
        case .auto: return ["mode": "AUTO"]
        case .none: return ["mode": "NONE"]
        case .required: return ["mode": "ANY"]
        case .named(let name):
            guard tools.contains(where: { $0.name == name }) else {
                throw GatewayError.invalidRequest(
                    "tool_choice names '\(name)', which is not among the tools of this request; name one of the offered tools.",
                    param: "tool_choice")
            }
            return ["mode": "ANY", "allowedFunctionNames": [.string(name)]]
        }
    }

    /// `generationConfig`: `maxOutputTokens`, `temperature`, `topP`, `stopSequences`,
    /// `responseMimeType`/`responseSchema` (from an OpenAI-style `response_format`) and `thinkingConfig`.
    ///
    /// Thinking: enabled → `{"includeThoughts": true, "thinkingBudget": budget?}`; disabled →
    /// `{"thinkingBudget": 0}` (models that cannot turn thinking off answer with a 400 that says so).
    /// `parallelToolCalls` and `user` have no Gemini equivalent and are not sent.
    static func generationConfig(_ request: ChatRequest) throws -> JSONObject {
        var config = JSONObject()
        if let maxTokens = request.maxTokens { config.append("maxOutputTokens", .int(maxTokens)) }
        if let temperature = request.temperature { config.append("temperature", .double(temperature)) }
        if let topP = request.topP { config.append("topP", .double(topP)) }
        if let topK = request.topK { config.append("topK", .int(topK)) }
        if let seed = request.seed { config.append("seed", .int(seed)) }
        if let p = request.presencePenalty { config.append("presencePenalty", .double(p)) }
        if let f = request.frequencyPenalty { config.append("frequencyPenalty", .double(f)) }
        if !request.stopSequences.isEmpty {
            config.append("stopSequences", .array(request.stopSequences.map(JSONValue.string)))
        }
        if let format = request.responseFormat {
            try appendResponseFormat(format, to: &config)
        }
        if let thinking = request.thinking {
            var thinkingConfig = JSONObject()
            if thinking.enabled {
                thinkingConfig.append("includeThoughts", true)
                if let budget = thinking.budgetTokens { thinkingConfig.append("thinkingBudget", .int(budget)) }
            } else {
                thinkingConfig.append("thinkingBudget", 0)
            }
            config.append("thinkingConfig", .object(thinkingConfig))
        }
        return config
    }

    /// `{"type":"json_object"}` → JSON output; `{"type":"json_schema","json_schema":{"schema":…}}` →
    /// JSON output constrained by the sanitised schema; `{"type":"text"}` → nothing.
    private static func appendResponseFormat(_ format: JSONValue, to config: inout JSONObject) throws {
        switch format["type"]?.stringValue {
        case "text", nil:
            return
        case "json_object":
            config.append("responseMimeType", "application/json")
        case "json_schema":
            config.append("responseMimeType", "application/json")
            if let schema = format["json_schema"]?["schema"] {
                config.append("responseSchema", GeminiSchemaSanitizer.sanitize(schema))
            }
        case let other?:
            throw GatewayError.invalidRequest(
                "response_format type '\(other)' cannot be sent to Gemini; use 'text', 'json_object' or 'json_schema'.",
                param: "response_format.type")
        }
    }
}
