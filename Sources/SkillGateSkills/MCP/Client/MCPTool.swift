import SkillGateCore

/// A tool as an MCP server lists it (`tools/list`).
public struct MCPTool: Sendable, Hashable {
    /// The server's name for it (what `tools/call` takes).
    public var name: String
    public var description: String
    /// `inputSchema`: a JSON Schema with `"type": "object"`.
    public var inputSchema: JSONValue
    /// What the server says of the tool: its `annotations` (only the members MCP defines, of the right type) and its
    /// `title` (2025-06-18 and later; before the annotations' own title). Passed on by `/mcp` (decision 0121).
    public var annotations: SkillAnnotations

    public init(name: String, description: String, inputSchema: JSONValue, annotations: SkillAnnotations = .none) {
        self.name = name
        self.description = description
        self.inputSchema = inputSchema
        self.annotations = annotations
    }

    /// Reads one entry of `tools`; nil when it lacks a name or its schema is not an object schema.
    init?(_ value: JSONValue) {
        guard let name = value["name"]?.stringValue, !name.isEmpty else { return nil }
        let schema = value["inputSchema"] ?? ["type": "object"]
        guard schema.objectValue != nil, (schema["type"]?.stringValue ?? "object") == "object" else { return nil }
        var annotations = SkillAnnotations(mcp: value["annotations"])
        if let title = value["title"]?.stringValue, !title.isEmpty { annotations.title = title }
        self.init(name: name, description: value["description"]?.stringValue ?? value["title"]?.stringValue ?? "",
                  inputSchema: schema, annotations: annotations)
    }
}

/// What `tools/call` returned: the text of its content and whether the tool reported an error.
public struct MCPCallResult: Sendable, Hashable {
    public var text: String
    public var isError: Bool
    /// `structuredContent`, when the tool returned one.
    public var structured: JSONValue?

    /// Reads a `CallToolResult`: text items joined by newlines; other items named by type
    /// (`[image: image/png]`), since the model reads text.
    init(_ result: JSONValue) throws(MCPError) {
        guard let content = result["content"]?.arrayValue else {
            throw MCPError(.protocolViolation, "the tools/call result has no \"content\" array")
        }
        var parts: [String] = []
        for item in content {
            switch item["type"]?.stringValue {
            case "text": parts.append(item["text"]?.stringValue ?? "")
            case "resource":
                parts.append(item["resource"]?["text"]?.stringValue ?? "[resource: \(item["resource"]?["uri"]?.stringValue ?? "?")]")
            case let type?: parts.append("[\(type)\(item["mimeType"]?.stringValue.map { ": " + $0 } ?? "")]")
            case nil: throw MCPError(.protocolViolation, "a tools/call content item has no \"type\"")
            }
        }
        structured = result["structuredContent"]
        if parts.isEmpty, let structured { parts.append(structured.serialized()) }
        text = parts.joined(separator: "\n")
        isError = result["isError"]?.boolValue ?? false
    }
}
