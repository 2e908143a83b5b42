import SkillGateCore

/// One labelled prompt for training or evaluating the router: a JSON Lines record.
///
/// ```json
/// {"id": "en-0001", "label": "strong", "messages": [{"role": "user", "content": "..."}],
///  "tools": [{"name": "get_weather", "description": "..."}], "json_output": true, "max_tokens": 4000}
/// ```
/// `"prompt": "..."` may stand for a single user message. `lang`, `kind`, `split` and `note` are
/// kept for reports; other keys are ignored.
public struct RoutingExample: Sendable {
    public var id: String
    public var request: ChatRequest
    public var strong: Bool
    public var lang: String?
    public var kind: String?
    public var split: String?

    public init(id: String, request: ChatRequest, strong: Bool, lang: String? = nil, kind: String? = nil, split: String? = nil) {
        self.id = id
        self.request = request
        self.strong = strong
        self.lang = lang
        self.kind = kind
        self.split = split
    }

    /// Reads JSON Lines; blank lines are skipped. Errors name the line and what to fix.
    public static func parseLines(_ bytes: [UInt8], source: String) throws(RouterModelError) -> [RoutingExample] {
        var out: [RoutingExample] = []
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let value: JSONValue
            do { value = try JSONValue.parse(Array(line)) } catch {
                throw RouterModelError("\(source):\(lineNumber): not valid JSON (\(error)); each line must be one JSON object")
            }
            do throws(RouterModelError) {
                out.append(try RoutingExample(json: value, fallbackId: "\(source):\(lineNumber)"))
            } catch {
                throw RouterModelError("\(source):\(lineNumber): \(error.message)")
            }
        }
        return out
    }

    init(json: JSONValue, fallbackId: String) throws(RouterModelError) {
        guard json.objectValue != nil else { throw RouterModelError("expected a JSON object") }
        guard let label = json["label"]?.stringValue, label == "light" || label == "strong" else {
            throw RouterModelError("\"label\" must be \"light\" or \"strong\"")
        }
        var messages: [Message] = []
        if let prompt = json["prompt"]?.stringValue {
            messages.append(Message(role: .user, text: prompt))
        } else if let list = json["messages"]?.arrayValue {
            for (i, m) in list.enumerated() {
                guard let roleName = m["role"]?.stringValue, let role = Self.role(roleName) else {
                    throw RouterModelError("messages[\(i)].role must be system, user, assistant or tool")
                }
                messages.append(Message(role: role, text: m["content"]?.stringValue ?? ""))
            }
        }
        guard messages.contains(where: { $0.role == .user }) else {
            throw RouterModelError("needs \"prompt\" or \"messages\" with at least one user message")
        }
        var request = ChatRequest(model: "auto", messages: messages)
        for (i, t) in (json["tools"]?.arrayValue ?? []).enumerated() {
            guard let name = t["name"]?.stringValue else { throw RouterModelError("tools[\(i)].name is missing") }
            request.tools.append(ToolDefinition(name: name, description: t["description"]?.stringValue, parameters: ["type": "object"]))
        }
        if json["json_output"]?.boolValue == true { request.responseFormat = ["type": "json_object"] }
        request.maxTokens = json["max_tokens"]?.intValue
        self.init(id: json["id"]?.stringValue ?? fallbackId, request: request, strong: label == "strong",
                  lang: json["lang"]?.stringValue, kind: json["kind"]?.stringValue, split: json["split"]?.stringValue)
    }

    static func role(_ name: String) -> Role? {
        switch name {
        case "system": .system
        case "user": .user
        case "assistant": .assistant
        case "tool": .tool
        default: nil
        }
    }
}
