import SkillGateCore

/// The request's `tools`, `tool_choice` and `text.format`.
enum ResponsesTools {
    /// Function tools (`{"type":"function","name":...,"parameters":...}`, flat as the Responses API
    /// has them). Hosted tools are refused by name: SkillGate has no web search or file store.
    static func decodeTools(_ value: JSONValue?) throws -> [ToolDefinition] {
        switch value {
        case nil, .null?: return []
        case .array(let items)?:
            return try items.enumerated().map { i, item in
                let param = "tools[\(i)]"
                guard item.objectValue != nil else { throw InboundField.wrongType(param, expected: "an object", got: item) }
                let type = try InboundField.requiredString(item, "type", at: "\(param).type")
                guard type == "function" else {
                    throw GatewayError.invalidRequest(
                        "`\(param).type` is \"\(type)\"; SkillGate supports only \"function\" tools (hosted tools such as web_search or file_search are not available); define it as a function tool or leave it out",
                        param: "\(param).type")
                }
                let name = try InboundField.requiredString(item, "name", at: "\(param).name")
                guard !name.isEmpty else {
                    throw GatewayError.invalidRequest("`\(param).name` is empty; give the tool a name", param: "\(param).name")
                }
                try ToolNameRule.check(name, param: "\(param).name")
                var tool = ToolDefinition(name: name, description: try InboundField.optionalString(item, "description", at: "\(param).description"),
                                          strict: try InboundField.optionalBool(item, "strict", at: "\(param).strict"))
                switch item["parameters"] {
                case nil, .null?: break
                case let p? where p.objectValue != nil: tool.parameters = p
                case let other: throw InboundField.wrongType("\(param).parameters", expected: "a JSON Schema object", got: other)
                }
                return tool
            }
        case let other: throw InboundField.wrongType("tools", expected: "an array of function tools", got: other)
        }
    }

    /// `"auto"`, `"none"`, `"required"` or `{"type":"function","name":...}`.
    static func decodeToolChoice(_ value: JSONValue?, tools: [ToolDefinition]) throws -> ToolChoice? {
        switch value {
        case nil, .null?: return nil
        case .string("auto")?: return .auto
        case .string("none")?: return ToolChoice.none
        case .string("required")?: return .required
        case let v? where v.objectValue != nil && v["type"]?.stringValue == "function":
            let name = try InboundField.requiredString(v, "name", at: "tool_choice.name")
            guard tools.contains(where: { $0.name == name }) else {
                throw GatewayError.invalidRequest("`tool_choice.name` is \"\(name)\", which is not in `tools`; name one of the tools you sent",
                                                  param: "tool_choice.name")
            }
            return .named(name)
        case let other?:
            throw GatewayError.invalidRequest(
                "`tool_choice` must be \"auto\", \"none\", \"required\" or {\"type\":\"function\",\"name\":...}, but it is \(other.serialized().prefix(80))",
                param: "tool_choice")
        }
    }

    /// A structured-output request from `text.format`.
    struct TextFormat: Sendable, Hashable {
        /// The format as the client sent it (repeated in the `response` object).
        var wire: JSONValue
        /// The same request as a Chat Completions `response_format` (the wire-neutral model's form);
        /// nil for plain text.
        var chatResponseFormat: JSONValue?
    }

    /// `text: {"format": {"type": "text" | "json_object" | "json_schema", ...}}`.
    static func decodeTextFormat(_ value: JSONValue?) throws -> TextFormat? {
        switch value {
        case nil, .null?: return nil
        case let text? where text.objectValue != nil:
            guard let format = text["format"], !format.isNull else { return nil }
            guard format.objectValue != nil else { throw InboundField.wrongType("text.format", expected: "an object like {\"type\":\"json_object\"}", got: format) }
            let type = try InboundField.requiredString(format, "type", at: "text.format.type")
            switch type {
            case "text":
                return TextFormat(wire: format, chatResponseFormat: nil)
            case "json_object":
                return TextFormat(wire: format, chatResponseFormat: ["type": "json_object"])
            case "json_schema":
                let name = try InboundField.requiredString(format, "name", at: "text.format.name")
                guard let schema = format["schema"], schema.objectValue != nil else {
                    throw InboundField.wrongType("text.format.schema", expected: "a JSON Schema object", got: format["schema"])
                }
                var spec: JSONObject = ["name": .string(name), "schema": schema]
                spec.append("strict", ifPresent: try InboundField.optionalBool(format, "strict", at: "text.format.strict").map(JSONValue.bool))
                spec.append("description", ifPresent: try InboundField.optionalString(format, "description", at: "text.format.description").map(JSONValue.string))
                return TextFormat(wire: format, chatResponseFormat: ["type": "json_schema", "json_schema": .object(spec)])
            default:
                throw GatewayError.invalidRequest("`text.format.type` is \"\(type)\"; use \"text\", \"json_object\" or \"json_schema\"",
                                                  param: "text.format.type")
            }
        case let other: throw InboundField.wrongType("text", expected: "an object like {\"format\":{\"type\":\"json_schema\",...}}", got: other)
        }
    }
}
