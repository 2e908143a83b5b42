import SkillGateCore

/// What a skill says about its effects, for clients that decide whether to ask a person before a call: MCP's
/// `ToolAnnotations` (defined alike in the revisions 2025-03-26, 2025-06-18 and 2025-11-25), shown in `/mcp`'s
/// `tools/list` (decision 0121). Every field is a hint and optional: nil is "not said", and a client then applies the
/// spec's default — not read-only, destructive, not idempotent, open world. `destructive` and `idempotent` mean
/// something only when `readOnly` is not true.
public struct SkillAnnotations: Sendable, Hashable {
    /// A name for people (`Delete a note`), where the tool name is for the model.
    public var title: String?
    /// True: the skill does not change anything.
    public var readOnly: Bool?
    /// True: the skill may change or remove what exists; false: it only adds.
    public var destructive: Bool?
    /// True: calling it again with the same arguments changes nothing more.
    public var idempotent: Bool?
    /// True: it reaches things outside the gateway (the web, another service); false: its world is closed.
    public var openWorld: Bool?

    public init(title: String? = nil, readOnly: Bool? = nil, destructive: Bool? = nil, idempotent: Bool? = nil, openWorld: Bool? = nil) {
        self.title = title
        self.readOnly = readOnly
        self.destructive = destructive
        self.idempotent = idempotent
        self.openWorld = openWorld
    }

    /// Nothing said: the spec's defaults apply.
    public static let none = SkillAnnotations()

    /// A skill that changes nothing.
    public static func readOnly(_ title: String, openWorld: Bool) -> SkillAnnotations {
        SkillAnnotations(title: title, readOnly: true, openWorld: openWorld)
    }

    /// Reads MCP's `annotations` object (an MCP server's tool, passed on): a member of the wrong type is dropped, and
    /// members the spec does not define are not kept, so `/mcp` shows only what its revisions define.
    public init(mcp value: JSONValue?) {
        let title = value?["title"]?.stringValue
        self.init(title: title?.isEmpty == false ? title : nil, readOnly: value?["readOnlyHint"]?.boolValue,
                  destructive: value?["destructiveHint"]?.boolValue, idempotent: value?["idempotentHint"]?.boolValue,
                  openWorld: value?["openWorldHint"]?.boolValue)
    }

    /// As MCP's `annotations` object, with only what is said; nil when nothing is.
    public var mcpValue: JSONValue? {
        var o = JSONObject()
        o.append("title", ifPresent: title.map(JSONValue.string))
        o.append("readOnlyHint", ifPresent: readOnly.map(JSONValue.bool))
        o.append("destructiveHint", ifPresent: destructive.map(JSONValue.bool))
        o.append("idempotentHint", ifPresent: idempotent.map(JSONValue.bool))
        o.append("openWorldHint", ifPresent: openWorld.map(JSONValue.bool))
        return o.isEmpty ? nil : .object(o)
    }
}
