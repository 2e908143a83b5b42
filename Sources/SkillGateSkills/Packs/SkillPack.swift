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

    public init(name: String, skills: [String], pinned: [String] = []) {
        self.name = name
        var seen = Set<String>()
        self.skills = skills.filter { seen.insert($0).inserted }
        self.pinned = pinned
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

    public init(names: Set<String>, pinned: Set<String> = []) {
        self.names = names
        self.pinned = pinned
    }

    /// The union of `packs`.
    public init(packs: [SkillPack]) {
        names = Set(packs.flatMap(\.skills))
        pinned = Set(packs.flatMap(\.pinned))
    }
}
