import SkillGateCore

extension GeminiFormat {
    /// Reads a Gemini `generateContent` request body back into a `ChatRequest` (the inverse of
    /// `requestBody`, used for round-trip tests and for reading recorded requests).
    ///
    /// `parameters`, `parametersJsonSchema` and the SDK's snake_case `parameters_json_schema` are
    /// all read as the tool schema. A user turn made only of `functionResponse` parts becomes a
    /// `.tool` message. Calls without an `id` get `call_<turn>_<part>`; responses without an `id`
    /// answer the earliest unanswered call of the same name.
    public static func decodeRequest(_ body: [UInt8], model: String) throws -> ChatRequest {
        let root: JSONValue
        do { root = try JSONValue.parse(body) } catch {
            throw GatewayError.invalidRequest("The Gemini request body is not valid JSON (\(error)); send a JSON object.")
        }
        guard root.objectValue != nil, let contents = root["contents"]?.arrayValue else {
            throw GatewayError.invalidRequest("The Gemini request has no `contents` array; add the conversation as `contents`.",
                                              param: "contents")
        }
        var messages: [Message] = []
        if let system = root["systemInstruction"]?["parts"]?.arrayValue {
            messages.append(Message(role: .system, text: system.compactMap { $0["text"]?.stringValue }.joined(separator: "\n\n")))
        }
        var unanswered: [(id: String, name: String)] = []
        for (i, turn) in contents.enumerated() {
            var blocks: [ContentBlock] = []
            for (j, part) in (turn["parts"]?.arrayValue ?? []).enumerated() {
                blocks += decodePart(part, turn: i, index: j, unanswered: &unanswered)
            }
            let isModel = turn["role"]?.stringValue == "model"
            let onlyResults = !blocks.isEmpty && blocks.allSatisfy { $0.toolResult != nil }
            messages.append(Message(role: isModel ? .assistant : onlyResults ? .tool : .user, content: blocks))
        }
        var request = ChatRequest(model: model, messages: messages)
        for group in root["tools"]?.arrayValue ?? [] {
            for declaration in group["functionDeclarations"]?.arrayValue ?? [] {
                guard let name = declaration["name"]?.stringValue else { continue }
                let schema = declaration["parameters"] ?? declaration["parametersJsonSchema"] ?? declaration["parameters_json_schema"]
                request.tools.append(ToolDefinition(name: name, description: declaration["description"]?.stringValue,
                                                    parameters: schema ?? ["type": "object", "properties": [:]]))
            }
        }
        if let config = root["toolConfig"]?["functionCallingConfig"] {
            request.toolChoice = toolChoice(config)
        }
        if let generation = root["generationConfig"] { applyGeneration(generation, to: &request) }
        return request
    }

    private static func decodePart(_ part: JSONValue, turn: Int, index: Int,
                                   unanswered: inout [(id: String, name: String)]) -> [ContentBlock] {
        let signature = part["thoughtSignature"]?.stringValue
        if let call = part["functionCall"] {
            let name = call["name"]?.stringValue ?? ""
            let id = call["id"]?.stringValue ?? "call_\(turn)_\(index)"
            unanswered.append((id, name))
            let args = call["args"].map { $0.serialized() } ?? "{}"
            return [.toolCall(ToolCall(id: id, name: name, arguments: args, signature: signature))]
        }
        if let response = part["functionResponse"] {
            let name = response["name"]?.stringValue
            var id = response["id"]?.stringValue
            if let known = unanswered.firstIndex(where: { $0.id == id || (id == nil && $0.name == name) }) {
                id = id ?? unanswered[known].id
                unanswered.remove(at: known)
            }
            let payload = response["response"] ?? .null
            let keys = payload.objectValue?.keys ?? []
            let result: ToolResult
            if keys == ["error"], let text = payload["error"]?.stringValue {
                result = ToolResult(callId: id ?? "", name: name, text: text, isError: true)
            } else if keys == ["result"], let text = payload["result"]?.stringValue {
                result = ToolResult(callId: id ?? "", name: name, text: text)
            } else {
                result = ToolResult(callId: id ?? "", name: name, text: payload.serialized())
            }
            return [.toolResult(result)]
        }
        if let inline = part["inlineData"], let data = inline["data"]?.stringValue {
            return [.image(.base64(mediaType: inline["mimeType"]?.stringValue ?? "application/octet-stream", data: data))]
        }
        if let uri = part["fileData"]?["fileUri"]?.stringValue {
            return [.image(.url(uri))]
        }
        guard let text = part["text"]?.stringValue else {
            return signature.map { [.thinking(Thinking(text: "", signature: $0))] } ?? []
        }
        if part["thought"]?.boolValue == true {
            return [.thinking(Thinking(text: text, signature: signature))]
        }
        guard let signature else { return [.text(text)] }
        let marker = ContentBlock.thinking(Thinking(text: "", signature: signature))
        return text.isEmpty ? [marker] : [.text(text), marker]
    }

    private static func toolChoice(_ config: JSONValue) -> ToolChoice? {
        switch config["mode"]?.stringValue {
        case "AUTO": return .auto
        case "NONE": return ToolChoice.none
        case "ANY", "VALIDATED":
            let names = config["allowedFunctionNames"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return names.count == 1 ? .named(names[0]) : .required
        default: return nil
        }
    }

    private static func applyGeneration(_ generation: JSONValue, to request: inout ChatRequest) {
        request.maxTokens = generation["maxOutputTokens"]?.intValue
        request.temperature = generation["temperature"]?.doubleValue
        request.topP = generation["topP"]?.doubleValue
        request.topK = generation["topK"]?.intValue
        request.seed = generation["seed"]?.intValue
        request.presencePenalty = generation["presencePenalty"]?.doubleValue
        request.frequencyPenalty = generation["frequencyPenalty"]?.doubleValue
        request.stopSequences = generation["stopSequences"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if let schema = generation["responseSchema"] {
            request.responseFormat = ["type": "json_schema", "json_schema": ["name": "response", "schema": schema]]
        } else if generation["responseMimeType"]?.stringValue == "application/json" {
            request.responseFormat = ["type": "json_object"]
        }
        if let thinking = generation["thinkingConfig"] {
            let budget = thinking["thinkingBudget"]?.intValue
            request.thinking = budget == 0 ? ThinkingConfig(enabled: false)
                : ThinkingConfig(enabled: true, budgetTokens: budget)
        }
    }
}
