/// A named set of skills a scenario can expose to the model.
///
/// A scenario names its packs; the union of their skills is the scenario's allowlist. Pinned
/// skills are never cut by relevance ranking (they are always shown when the client declares them).
public struct SkillPack: Sendable, Hashable {
    /// The pack's name in config.
    public var name: String
    /// Skill (tool) names, in config order, without duplicates.
    public var skills: [String]
    /// Skills of this pack that relevance ranking must never cut (a subset of `skills`).
    public var pinned: [String]
    /// Name prefixes: every skill whose name starts with one is in the pack (`SERVER.*` entries: all
    /// tools of an MCP server, `SERVER__`).
    public var prefixes: [String]
    /// The MCP servers the pack's `SERVER.TOOL` and `SERVER.*` entries name.
    public var mcpServers: [String]

    /// `skills` may contain `SERVER.TOOL` (the MCP tool's skill `SERVER__TOOL`) and `SERVER.*` (a prefix).
    public init(name: String, skills: [String], pinned: [String] = []) {
        self.name = name
        var seen = Set<String>()
        var names: [String] = [], prefixes: [String] = [], servers: [String] = []
        for entry in skills {
            if let mcp = MCPSkillName.packEntry(entry) {
                if !servers.contains(mcp.server) { servers.append(mcp.server) }
                if let prefix = mcp.prefix { if !prefixes.contains(prefix) { prefixes.append(prefix) }; continue }
                if let skill = mcp.skill, seen.insert(skill).inserted { names.append(skill) }
            } else if seen.insert(entry).inserted {
                names.append(entry)
            }
        }
        self.skills = names
        self.pinned = pinned.map { MCPSkillName.packEntry($0)?.skill ?? $0 }
        self.prefixes = prefixes
        mcpServers = servers
    }

    /// Whether `name` is a valid skill name for providers: `[a-zA-Z0-9_-]{1,64}`.
    public static func isValidSkillName(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count) else { return false }
        return name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
    }
}

/// What config says about a skill beyond its name, for relevance ranking.
///
/// The description here is what ranking reads when the client's tool definition has none, and it
/// is searched together with the client's description when both exist. Keywords are extra search
/// terms (synonyms, other languages: `["weather", "forecast", "天气"]`).
public struct SkillMetadata: Sendable, Hashable {
    public var description: String?
    public var keywords: [String]

    public init(description: String? = nil, keywords: [String] = []) {
        self.description = description
        self.keywords = keywords
    }
}

/// The skills a scenario allows, resolved from its packs once at start.
public struct SkillAllowlist: Sendable, Hashable {
    /// Every skill name of the scenario's packs.
    public var names: Set<String>
    /// Skills never cut by relevance ranking.
    public var pinned: Set<String>
    /// Name prefixes whose skills are all allowed (`SERVER.*` pack entries).
    public var prefixes: Set<String>

    public init(names: Set<String>, pinned: Set<String> = [], prefixes: Set<String> = []) {
        self.names = names
        self.pinned = pinned
        self.prefixes = prefixes
    }

    /// The union of `packs`.
    public init(packs: [SkillPack]) {
        names = Set(packs.flatMap(\.skills))
        pinned = Set(packs.flatMap(\.pinned))
        prefixes = Set(packs.flatMap(\.prefixes))
    }

    /// Whether the skill `name` is allowed: listed by name or under a prefix.
    public func allows(_ name: String) -> Bool {
        names.contains(name) || prefixes.contains { name.hasPrefix($0) }
    }

    /// The allowed names and prefixes for messages (`"a", "b", "server.*"`).
    public var described: [String] {
        names.sorted() + prefixes.sorted().map { String($0.dropLast(MCPSkillName.separator.count)) + ".*" }
    }
}
