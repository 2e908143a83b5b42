import Synchronization
import Testing
import SkillGateCore
@testable import SkillGateSkills

/// What the registry hands the skill policy on every request: the configured skills' definitions made once, schemas
/// kept as text; the live set's as its skills give them (decision 0070).
@Suite struct SkillRegistryTests {
    /// A skill whose definition is made from its properties on each call, counting the calls.
    final class CountingSkill: Skill {
        let name: String
        let parameters: JSONValue
        private let made = Mutex(0)
        var definitionsMade: Int { made.locked { $0 } }
        var id: String { "test.\(name)" }
        var description: String { "Counts \(name)" }
        var version: String { "1" }
        var timeout: Duration { .seconds(1) }
        var requiresConfirmation: Bool { false }
        var toolDefinition: ToolDefinition {
            made.locked { $0 += 1 }
            return ToolDefinition(name: name, description: description, parameters: parameters, strict: true)
        }

        init(_ name: String, _ parameters: JSONValue) {
            self.name = name
            self.parameters = parameters
        }

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult { SkillResult(text: name) }
    }

    /// A live set of fixed skills.
    struct FixedLiveSet: LiveSkillSet {
        let current: [any Skill]
        func skill(named name: String) -> (any Skill)? { current.first { $0.name == name } }
    }

    static let schema: JSONValue = ["type": "object", "properties": ["city": ["type": "string", "description": "in \"quotes\""]],
                                    "required": ["city"]]

    @Test func configuredSkillsAreDefinedOnceWithTheirSchemasKeptAsText() throws {
        let weather = CountingSkill("weather", Self.schema), clock = CountingSkill("clock", ["type": "object", "properties": [:]])
        let registry = try SkillRegistry([weather, clock])
        #expect(weather.definitionsMade == 1 && clock.definitionsMade == 1)
        for _ in 0..<3 {
            let registered = registry.registered
            #expect(registered.map(\.definition.name) == ["weather", "clock"])
            #expect(registered.allSatisfy { $0.definition.schema.isText })
        }
        #expect(weather.definitionsMade == 1, "the registry's definitions are made when it is built, not per request")
        let definition = try #require(registry.registered.first?.definition)
        // The skill's own definition, whole: name, description, schema (equal as JSON), strict.
        #expect(definition == ToolDefinition(name: "weather", description: "Counts weather", parameters: Self.schema, strict: true))
        #expect(definition.schema.compactText == Self.schema.serializedBytes())
        #expect(registry.all.map(\.name) == ["weather", "clock"])
    }

    @Test func liveSkillsKeepTheDefinitionTheirSetGives() throws {
        let live = CountingSkill("srv__lookup", Self.schema)
        let registry = try SkillRegistry([CountingSkill("clock", ["type": "object"])], live: FixedLiveSet(current: [live]))
        let registered = registry.registered
        #expect(registered.map(\.definition.name) == ["clock", "srv__lookup"])
        #expect(registered[0].definition.schema.isText)
        #expect(!registered[1].definition.schema.isText, "taken as the live skill gives it, not written out per request")
        #expect(registered[1].definition.parameters == Self.schema)
        _ = registry.registered
        #expect(live.definitionsMade == 2, "asked for on each request: a live set's skills change while the gateway runs")
    }

    @Test func aDuplicateNameIsRefusedNamingIt() {
        #expect(throws: GatewayError.self) { try SkillRegistry([CountingSkill("a", [:]), CountingSkill("a", [:])]) }
        do {
            _ = try SkillRegistry([CountingSkill("twice", [:]), CountingSkill("twice", [:])])
        } catch let error as GatewayError {
            #expect(error.message.contains("\"twice\""), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
