import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateRouting

/// How `"model": "auto"` picks a tier, from the `routing` section.
///
/// ```json
/// "routing": {"model": "builtin", "strong_threshold": 0.5, "scenario_lean": 1.0}
/// ```
/// - `model`: `builtin` (the learned router trained on the evaluation corpus; default), a path to
///   a model file written by `skillgate route train` (relative to the config file), or `markers`
///   (the hand-weighted marker scorer, tuned with `weights`; see docs/decisions/0005-auto-routing.md).
/// - `strong_threshold`: for a learned model, the probability at which `strong` starts (default:
///   the model's own, 0.5); for `markers`, the score.
/// - `scenario_lean`: log-odds a scenario whose default is a tier adds toward it (learned models).
public struct RoutingSettings: Sendable {
    /// The scorer built from the section.
    public var router: TierRouter
    /// `builtin`, `markers`, or the model file's path.
    public var source: String
    /// The marker scorer's weights (also used to explain its decisions).
    public var weights: RoutingWeights

    /// The defaults: the built-in learned model.
    public static var defaults: RoutingSettings {
        RoutingSettings(router: .learned(LearnedTierScorer(model: DefaultRouterModel.model)), source: "builtin", weights: .defaults)
    }
}

extension GatewayConfig {
    static func routing(from root: JSONReader, baseDirectory: String) throws(JSONShapeError) -> RoutingSettings {
        guard let section = try root.optionalObject("routing") else { return .defaults }
        let weights = try RoutingWeights(config: section)
        let source = try section.optionalString("model") ?? "builtin"
        let threshold = try section.optionalDouble("strong_threshold")
        let lean = try section.optionalDouble("scenario_lean")
        if source == "markers" {
            if lean != nil {
                throw section.error("scenario_lean", "applies to learned models; the marker scorer leans with weights.scenario_default")
            }
            return RoutingSettings(router: .markers(TierScorer(weights: weights)), source: source, weights: weights)
        }
        if section.object["weights"] != nil {
            throw section.error("weights", "tunes the marker scorer only; add \"model\": \"markers\" to use it, or remove \"weights\" and train the learned router on your own prompts (skillgate route train)")
        }
        if let threshold, !(threshold > 0 && threshold < 1) {
            throw section.error("strong_threshold", "is a probability for a learned model: expected a number between 0 and 1 (exclusive), got \(threshold)")
        }
        if let lean, !(lean.isFinite && abs(lean) <= 10) {
            throw section.error("scenario_lean", "expected log-odds between -10 and 10 (default \(LearnedTierScorer.defaultScenarioLean)), got \(lean)")
        }
        let model: RouterModel
        if source == "builtin" {
            model = DefaultRouterModel.model
        } else {
            let path = source.hasPrefix("/") ? source : FilePath.join(baseDirectory, source)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw section.error("model", "cannot read the router model file \(path); write one with `skillgate route train FILE.jsonl --out \(source)`, or use \"builtin\" or \"markers\"")
            }
            do { model = try RouterModel(bytes: Array(data)) } catch {
                throw section.error("model", "\(path): \(error.message)")
            }
        }
        let scorer = LearnedTierScorer(model: model, threshold: threshold, scenarioLean: lean ?? LearnedTierScorer.defaultScenarioLean)
        return RoutingSettings(router: .learned(scorer), source: source, weights: weights)
    }

    /// What `auto` (or no model) means in `scenario`: its default, else the gateway's.
    func autoDefault(for scenario: ScenarioConfig) -> String {
        scenario.defaultModel ?? defaultModel
    }
}
