import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateSkills

/// The skill-selection part of the evaluation corpus (`Tests/Eval/skills`): a tool catalog
/// (`catalog.json`) and labelled requests (`requests-*.jsonl`), each with the tools that must be
/// visible for the model to do the task and a fixed `split`.
public struct SkillsCorpus: Sendable {
    /// A catalog tool: its definition and the language of its description.
    public struct Tool: Sendable {
        public var definition: ToolDefinition
        public var lang: String
        public var domain: String
    }

    /// A labelled request.
    public struct Request: Sendable {
        public var id: String
        public var lang: String
        /// `en`, `zh` (request and tools in one language), `cross`, `followup`, `none`.
        public var category: String
        public var messages: [Message]
        public var expected: [String]
        public var split: String?
    }

    public var tools: [Tool]
    public var requests: [Request]

    /// Reads `catalog.json` and every `requests*.jsonl` of `directory`.
    public static func load(directory: String) throws -> SkillsCorpus {
        let catalogPath = FilePath.join(directory, "catalog.json")
        guard let data = FileManager.default.contents(atPath: catalogPath) else {
            throw EvalError("cannot read \(catalogPath); give the corpus directory with --corpus (the repository's is Tests/Eval/skills)")
        }
        let catalog = try JSONValue.parse(Array(data))
        var tools: [Tool] = []
        for (i, t) in (catalog.arrayValue ?? []).enumerated() {
            guard let name = t["name"]?.stringValue else { throw EvalError("\(catalogPath): tool \(i) has no name") }
            tools.append(Tool(definition: ToolDefinition(name: name, description: t["description"]?.stringValue,
                                                         parameters: t["parameters"] ?? ["type": "object"]),
                              lang: t["lang"]?.stringValue ?? "en", domain: t["domain"]?.stringValue ?? ""))
        }
        guard !tools.isEmpty else { throw EvalError("\(catalogPath) lists no tools") }
        let known = Set(tools.map(\.definition.name))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("requests") && $0.hasSuffix(".jsonl") }.sorted()
        var requests: [Request] = []
        for file in files {
            let path = FilePath.join(directory, file)
            guard let bytes = FileManager.default.contents(atPath: path) else { throw EvalError("cannot read \(path)") }
            var lineNumber = 0
            for line in Array(bytes).split(separator: 0x0A) {
                lineNumber += 1
                let where_ = "\(path):\(lineNumber)"
                let r = try JSONValue.parse(Array(line))
                let expected = (r["expected"]?.arrayValue ?? []).compactMap(\.stringValue)
                for name in expected where !known.contains(name) { throw EvalError("\(where_): expected tool \"\(name)\" is not in the catalog") }
                requests.append(Request(id: r["id"]?.stringValue ?? where_, lang: r["lang"]?.stringValue ?? "?",
                                        category: r["category"]?.stringValue ?? "?", messages: try messages(r["messages"], where_),
                                        expected: expected, split: r["split"]?.stringValue))
            }
        }
        return SkillsCorpus(tools: tools, requests: requests)
    }

    /// The requests of `split` (`dev`, `test` or `all`).
    public func split(_ name: String) throws -> [Request] {
        guard name != "all" else { return requests }
        guard name == "dev" || name == "test" else { throw EvalError("--split must be dev, test or all, got \"\(name)\"") }
        let chosen = requests.filter { $0.split == name }
        guard !chosen.isEmpty else { throw EvalError("no request has \"split\": \"\(name)\"; run Tests/Eval/assign-splits.py") }
        return chosen
    }

    /// Corpus messages to the wire-neutral model: text turns, assistant tool calls, tool results.
    static func messages(_ value: JSONValue?, _ where_: String) throws -> [Message] {
        var out: [Message] = []
        var callNumber = 0
        var lastCallId: [String: String] = [:]
        for m in value?.arrayValue ?? [] {
            let text = m["content"]?.stringValue ?? ""
            switch m["role"]?.stringValue {
            case "user": out.append(Message(role: .user, text: text))
            case "system": out.append(Message(role: .system, text: text))
            case "assistant":
                var content: [ContentBlock] = text.isEmpty ? [] : [.text(text)]
                for c in m["tool_calls"]?.arrayValue ?? [] {
                    callNumber += 1
                    let name = c["name"]?.stringValue ?? ""
                    let id = "call_\(callNumber)"
                    lastCallId[name] = id
                    content.append(.toolCall(ToolCall(id: id, name: name, arguments: (c["arguments"] ?? [:]).serialized())))
                }
                out.append(Message(role: .assistant, content: content))
            case "tool":
                let name = m["name"]?.stringValue
                let id = name.flatMap { lastCallId[$0] } ?? "call_\(callNumber)"
                out.append(Message(role: .tool, content: [.toolResult(ToolResult(callId: id, name: name, text: text))]))
            default: throw EvalError("\(where_): a message has no known role")
            }
        }
        guard out.last?.role == .user else { throw EvalError("\(where_): the last message must be the user's") }
        return out
    }
}
