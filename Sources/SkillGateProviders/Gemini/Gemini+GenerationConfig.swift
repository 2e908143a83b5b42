import SkillGateCore

extension GeminiFormat {
    /// Writes `,"generationConfig":{…}` when the request sets any of: `maxOutputTokens`, `temperature`, `topP`, `topK`,
    /// `seed`, `presencePenalty`, `frequencyPenalty`, `stopSequences`, `responseMimeType`/`responseSchema` (from an OpenAI-style `response_format`) and
    /// `thinkingConfig`; nothing otherwise.
    ///
    /// Thinking: enabled → `{"includeThoughts": true, "thinkingBudget": budget?}`; disabled →
    /// `{"thinkingBudget": 0}` (models that cannot turn thinking off answer with a 400 that says so).
    /// `parallelToolCalls`, `user` and `logitBias` (OpenAI token ids) have no Gemini equivalent and are not sent.
    static func writeGenerationConfig(_ request: ChatRequest, to out: inout [UInt8]) throws {
        let start = out.count
        out += #","generationConfig":{"#
        let open = out.count
        func key(_ name: StaticString) {
            if out.count > open { out.append(UInt8(ascii: ",")) }
            out += name
        }
        if let maxTokens = request.maxTokens { key(#""maxOutputTokens":"#); out.append(contentsOf: String(maxTokens).utf8) }
        if let temperature = request.temperature { key(#""temperature":"#); JSONValue.double(temperature).write(to: &out) }
        if let topP = request.topP { key(#""topP":"#); JSONValue.double(topP).write(to: &out) }
        if let topK = request.topK { key(#""topK":"#); out.append(contentsOf: String(topK).utf8) }
        if let seed = request.seed { key(#""seed":"#); out.append(contentsOf: String(seed).utf8) }
        if let p = request.presencePenalty { key(#""presencePenalty":"#); JSONValue.double(p).write(to: &out) }
        if let f = request.frequencyPenalty { key(#""frequencyPenalty":"#); JSONValue.double(f).write(to: &out) }
        if !request.stopSequences.isEmpty {
            key(#""stopSequences":"#)
            JSONValue.writeStrings(request.stopSequences, to: &out)
        }
        if let format = request.responseFormat {
            switch format["type"]?.stringValue {
            case "text", nil:
                break
            case "json_object":
                key(#""responseMimeType":"application/json""#)
            case "json_schema":
                key(#""responseMimeType":"application/json""#)
                if let schema = format["json_schema"]?["schema"] {
                    key(#""responseSchema":"#)
                    GeminiSchemaSanitizer.sanitize(schema).write(to: &out)
                }
            case let other?:
                throw GatewayError.invalidRequest(
                    "response_format type '\(other)' cannot be sent to Gemini; use 'text', 'json_object' or 'json_schema'.",
                    param: "response_format.type")
            }
        }
        if let thinking = request.thinking {
            if thinking.enabled {
                key(#""thinkingConfig":{"includeThoughts":true"#)
                if let budget = thinking.budgetTokens {
                    out += #","thinkingBudget":"#
                    out.append(contentsOf: String(budget).utf8)
                }
                out.append(UInt8(ascii: "}"))
            } else {
                key(#""thinkingConfig":{"thinkingBudget":0}"#)
            }
        }
        if out.count == open {
            out.removeSubrange(start...)
        } else {
            out.append(UInt8(ascii: "}"))
        }
    }
}
