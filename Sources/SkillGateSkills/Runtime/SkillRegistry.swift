import SkillGateCore

/// The server-side skills by tool name: the configured ones (immutable once built) and, when
/// given, a live set read at every lookup (configured names win).
public struct SkillRegistry: Sendable {
    private let byName: [String: any Skill]
    private let configured: [RegisteredSkill]
    /// The live part (MCP servers' tools), if any.
    public let live: (any LiveSkillSet)?
    /// Skills in registration order, then the live ones.
    public var all: [any Skill] { live.map { configured.map(\.skill) + $0.current } ?? configured.map(\.skill) }
    /// `all` with their tool definitions: the configured skills' made once, when the registry was built; the live ones'
    /// as the live set's skills give them (an MCP tool's is made once per tool list, `MCPSkill`).
    public var registered: [RegisteredSkill] {
        guard let live else { return configured }
        return configured + live.current.map { RegisteredSkill(keeping: $0) }
    }

    /// Registers `skills`; a duplicate name is an error naming it.
    public init(_ skills: [any Skill], live: (any LiveSkillSet)? = nil) throws {
        var byName: [String: any Skill] = [:]
        for skill in skills {
            guard byName[skill.name] == nil else {
                throw GatewayError.invalidRequest("two server-side skills are named \"\(skill.name)\"; rename one of them in the config")
            }
            byName[skill.name] = skill
        }
        self.byName = byName
        configured = skills.map { RegisteredSkill($0) }
        self.live = live
    }

    /// The skill with this tool name.
    public func skill(named name: String) -> (any Skill)? { byName[name] ?? live?.skill(named: name) }

    /// Whether a tool name is a server-side skill.
    public func contains(_ name: String) -> Bool { skill(named: name) != nil }
}

/// A server-side skill beside the tool definition the model sees for it.
public struct RegisteredSkill: Sendable {
    public let skill: any Skill
    /// The definition with its schema kept as text (`ToolSchema.keptAsText`): requests copy it into their upstream
    /// bodies instead of writing a tree out each time, and a wire format's rewrite of it (Gemini's sanitised schema) is
    /// made once (decision 0070).
    public let definition: ToolDefinition

    /// Makes the definition from `skill.toolDefinition`, keeping its schema as text.
    public init(_ skill: any Skill) {
        self.skill = skill
        var definition = skill.toolDefinition
        definition.schema = definition.schema.keptAsText
        self.definition = definition
    }

    /// Takes `skill.toolDefinition` as it is: for a skill that keeps its own, asked for on every request (a live set's).
    public init(keeping skill: any Skill) {
        self.skill = skill
        definition = skill.toolDefinition
    }
}
