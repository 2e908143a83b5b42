import SkillGateCore

extension GeminiFormat {
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
