import Foundation
import Testing
import SkillGateCore
import SkillGateProviders
@testable import SkillGateServer

/// Model names resolved once at load: tiers, alias chains, `provider/model`, bare ids, refusals.
@Suite struct RoutingTableTests {
    private func table(_ json: String) throws -> RoutingTable {
        let config = try GatewayConfig(json: try JSONValue.parse(json), file: "t.json", baseDirectory: ModelResolverTests.repoRoot.path)
        return RoutingTable(config: config, catalog: ModelResolverTests.catalog)
    }

    static let json = #"""
    {"aliases":{"fast":"demo/demo-light","quick":"fast"},
     "tiers":{"light":["quick","demo/demo-light"],"strong":["demo/demo-strong"]}}
    """#

    @Test func tiersAndAliasChainsResolveToTargetsWithTheirExplanation() throws {
        let t = try table(Self.json)
        let quick = try t.resolve("quick")
        #expect(quick.targets.map(\.qualifiedName) == ["demo/demo-light"])
        #expect(quick.explanation == ["alias quick → fast", "alias fast → demo/demo-light"])
        #expect(try t.resolve("light").targets.map(\.qualifiedName) == ["demo/demo-light", "demo/demo-light"])
        #expect(try t.resolve("demo-strong").explanation == ["model demo-strong → demo/demo-strong"])
    }

    /// An embedding model named bare is refused as one (400), like its qualified name, not as an unknown model (404).
    @Test(arguments: ["text-embedding-3-small", "openai/text-embedding-3-small"])
    func anEmbeddingModelIsRefusedAsOneBareOrQualified(_ model: String) throws {
        do {
            _ = try table(Self.json).resolve(model)
            Issue.record("\(model) resolved")
        } catch let error as GatewayError {
            #expect(error.status == 400 && error.message.contains("embedding model"), "\(error)")
        }
    }

    @Test func unknownNamesAndEmbeddingModelsAreRefusedWithAHowTo() throws {
        let t = try table(Self.json)
        #expect(throws: GatewayError.self) { try t.resolve("gpt-nine") }
        do { _ = try t.resolve("openai/text-embedding-3-small"); Issue.record("expected a 400") } catch {
            #expect(error.status == 400 && error.message.contains("embedding model"))
        }
    }

    @Test func allowListsAreLookupsOverResolvedNames() throws {
        let t = try table(Self.json)
        let light = try t.resolve("demo/demo-light").targets[0]
        let strong = try t.resolve("demo/demo-strong").targets[0]
        #expect(t.permits([], strong, requested: "strong"))
        #expect(t.permits(["light"], light, requested: "fast"))
        #expect(t.permits(["quick"], light, requested: "demo/demo-light"))
        #expect(!t.permits(["light"], strong, requested: "strong"))
        #expect(t.permits(["strong"], strong, requested: "strong"))
    }
}
