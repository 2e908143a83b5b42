import SkillGateCore

/// A tool of an MCP server as a server-side skill (`SERVER__TOOL`): validated, timed and shown
/// like a built-in; a run is a `tools/call` through the server's link.
public struct MCPSkill: Skill {
    public let server: String
    /// The server's own name for the tool.
    public let tool: String
    public let name: String
    public let description: String
    public let parameters: JSONValue
    public let timeout: Duration
    public let requiresConfirmation: Bool
    /// The server's hints and title for the tool, as it listed them (`/mcp` overrides them when the server's config
    /// says `requires_confirmation`).
    public let annotations: SkillAnnotations
    /// Made once per tool list, its schema kept as text: every request that shows the tool copies it.
    public let toolDefinition: ToolDefinition
    public var id: String { "mcp.\(server).\(tool)" }
    public var version: String { "mcp" }
    let link: MCPServerLink

    public init(link: MCPServerLink, tool: MCPTool, name: String) {
        self.link = link
        server = link.config.name
        self.tool = tool.name
        self.name = name
        description = tool.description.isEmpty ? "\(tool.name) (a tool of the MCP server \(link.config.name))" : tool.description
        parameters = tool.inputSchema
        toolDefinition = ToolDefinition(name: name, description: description, schema: ToolSchema(keepingTextOf: tool.inputSchema))
        // The link's own call timeout answers first; the skill timeout is the backstop.
        timeout = link.config.callTimeout + .seconds(1)
        requiresConfirmation = link.config.requiresConfirmation
        annotations = tool.annotations
    }

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        switch await link.call(tool, arguments: arguments) {
        case .result(let r):
            return SkillResult(text: r.text.isEmpty ? "(\(name) returned no content)" : r.text, payload: r.structured, isError: r.isError)
        case .failure(let why):
            return SkillResult(text: "\(name) could not run: \(why)", isError: true)
        }
    }
}
