import SkillGateCore
import Synchronization

/// The skills of every configured MCP server, as one live set the registry reads per request.
/// Rebuilt whenever a server's tool list changes; names that collide with a configured skill or
/// are too long for providers are skipped and logged.
public final class MCPSkillSource: LiveSkillSet {
    public let links: [MCPServerLink]
    private let snapshot = Mutex<(all: [any Skill], byName: [String: any Skill])>(([], [:]))
    private let reserved: Set<String>
    private let log: MCPServerLink.Logger

    /// `makeLinks` builds the links with the `changed` callback this source needs. `reserved` are the
    /// names of the other server-side skills.
    public init(reserved: Set<String>, log: @escaping MCPServerLink.Logger,
                makeLinks: (_ changed: @escaping @Sendable () -> Void) -> [MCPServerLink]) {
        self.reserved = reserved
        self.log = log
        let box = WeakSource()
        links = makeLinks { box.source?.rebuild() }
        box.source = self
    }

    /// Connects every server (in parallel); returns when each made its first attempt.
    public func start() async {
        await withTaskGroup(of: Void.self) { group in
            for link in links { group.addTask { await link.start() } }
        }
        rebuild()
    }

    /// Stops every server.
    public func stop() async {
        await withTaskGroup(of: Void.self) { group in
            for link in links { group.addTask { await link.stop() } }
        }
    }

    public var current: [any Skill] { snapshot.locked { $0.all } }

    public func skill(named name: String) -> (any Skill)? { snapshot.locked { $0.byName[name] } }

    /// Rebuilds the set from the links' tool lists.
    func rebuild() {
        var all: [any Skill] = []
        var byName: [String: any Skill] = [:]
        for link in links {
            for tool in link.tools {
                let name = MCPSkillName.make(server: link.config.name, tool: tool.name)
                guard name.utf8.count <= 64 else {
                    log("mcp tool skipped", ["server": .string(link.config.name), "tool": .string(tool.name),
                                             "reason": .string("\"\(name)\" is longer than 64 characters, which providers refuse; shorten the server's name")], "warn")
                    continue
                }
                guard !reserved.contains(name), byName[name] == nil else {
                    log("mcp tool skipped", ["server": .string(link.config.name), "tool": .string(tool.name),
                                             "reason": .string("another skill is already named \"\(name)\"")], "warn")
                    continue
                }
                let skill = MCPSkill(link: link, tool: tool, name: name)
                all.append(skill)
                byName[name] = skill
            }
        }
        snapshot.locked { $0 = (all, byName) }
    }
}

/// The links' `changed` callback reaches the source through this (the source owns the links).
private final class WeakSource: Sendable {
    private struct Ref { weak var source: MCPSkillSource? }
    private let ref = Mutex(Ref())
    var source: MCPSkillSource? {
        get { ref.locked { $0.source } }
        set { ref.locked { $0.source = newValue } }
    }
}
