import SkillGateCore
import SkillGateRouting

/// The `routing` section: how `"model": "auto"` picks a tier.
///
/// ```json
/// "routing": {"strong_threshold": 0.5, "weights": {"reasoning": 0.7, "math": 0.5, "thinking": 0.7}}
/// ```
/// Every key is optional (defaults: `RoutingFeature.defaultWeight`, threshold 0.5); unknown keys
/// and values out of range are errors naming the file and JSON path. docs/decisions/0005-auto-routing.md
/// explains the defaults.
extension GatewayConfig {
    static func routing(from root: JSONReader) throws(JSONShapeError) -> RoutingWeights {
        guard let section = try root.optionalObject("routing") else { return .defaults }
        return try RoutingWeights(config: section)
    }

    /// What `auto` (or no model) means in `scenario`: its default, else the gateway's.
    func autoDefault(for scenario: ScenarioConfig) -> String {
        scenario.defaultModel ?? defaultModel
    }
}
