import Testing
import SkillGateCore
@testable import SkillGateRouting

@Suite struct RoutingWeightsTests {
    private func parse(_ json: String) throws -> RoutingWeights {
        let root = try JSONReader(root: try JSONValue.parse(json), file: "gw.json")
        return try RoutingWeights(config: try root.object("routing"))
    }

    @Test func defaultsAndOverrides() throws {
        let d = try parse(#"{"routing":{}}"#)
        #expect(d == .defaults)
        #expect(d.strongThreshold == 0.5)
        for f in RoutingFeature.allCases { #expect(d[f] == f.defaultWeight) }
        let w = try parse(#"{"routing":{"strong_threshold":0.6,"weights":{"math":0.9,"tool_result":-0.3}}}"#)
        #expect(w.strongThreshold == 0.6 && w[.math] == 0.9 && w[.toolResult] == -0.3 && w[.reasoning] == 0.7)
    }

    @Test(arguments: [
        (#"{"routing":{"threshold":0.5}}"#, "$.routing.threshold", "unknown key"),
        (#"{"routing":{"weights":{"resoning":1}}}"#, "$.routing.weights.resoning", "reasoning"),
        (#"{"routing":{"weights":{"math":"high"}}}"#, "$.routing.weights.math", "expected a number"),
        (#"{"routing":{"weights":{"math":50}}}"#, "$.routing.weights.math", "between -10 and 10"),
        (#"{"routing":{"strong_threshold":0}}"#, "$.routing.strong_threshold", "above 0"),
        (#"{"routing":{"strong_threshold":true}}"#, "$.routing.strong_threshold", "expected a number"),
        (#"{"routing":{"weights":[]}}"#, "$.routing.weights", "expected an object"),
    ])
    func badConfigNamesFileAndPath(_ json: String, _ path: String, _ fragment: String) {
        do {
            _ = try parse(json)
            Issue.record("expected an error at \(path)")
        } catch let error as JSONShapeError {
            #expect(error.file == "gw.json")
            #expect(error.path == path)
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
