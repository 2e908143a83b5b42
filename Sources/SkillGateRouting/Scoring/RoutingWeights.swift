import SkillGateCore

/// The router's tuning: one weight per feature and the score at which the strong tier starts.
///
/// Config: `"routing": {"strong_threshold": 0.5, "weights": {"reasoning": 0.7, ...}}`; every key
/// is optional and unknown keys are errors. Defaults are `RoutingFeature.defaultWeight`.
public struct RoutingWeights: Sendable, Hashable {
    /// Weights in `RoutingFeature.allCases` order.
    private var values: [Double]
    /// A score at or above this picks the strong tier.
    public var strongThreshold: Double

    /// The defaults (threshold 0.5).
    public static let defaults = RoutingWeights()

    public init(strongThreshold: Double = 0.5, overrides: [RoutingFeature: Double] = [:]) {
        values = RoutingFeature.allCases.map { overrides[$0] ?? $0.defaultWeight }
        self.strongThreshold = strongThreshold
    }

    /// The weight of `feature`.
    public subscript(feature: RoutingFeature) -> Double {
        get { values[feature.ordinal] }
        set { values[feature.ordinal] = newValue }
    }

    /// The keys accepted under `routing`.
    public static let configKeys: Set<String> = ["strong_threshold", "weights", "model", "scenario_lean", "$comment"]

    /// Reads the `routing` object of a config file (`reader` is positioned on it). Errors name the
    /// file and JSON path and say what is expected.
    public init(config reader: JSONReader) throws(JSONShapeError) {
        try reader.rejectUnknownKeys(Self.configKeys)
        self.init()
        if let t = try reader.optionalDouble("strong_threshold") {
            guard t.isFinite, t > 0, t <= 10 else {
                throw reader.error("strong_threshold", "expected a number above 0 and at most 10 (default 0.5), got \(t)")
            }
            strongThreshold = t
        }
        if let w = try reader.optionalObject("weights") {
            try w.rejectUnknownKeys(Set(RoutingFeature.allCases.map(\.rawValue)))
            for feature in RoutingFeature.allCases {
                guard let v = try w.optionalDouble(feature.rawValue) else { continue }
                guard v.isFinite, abs(v) <= 10 else {
                    throw w.error(feature.rawValue, "expected a weight between -10 and 10 (default \(feature.defaultWeight)), got \(v)")
                }
                self[feature] = v
            }
        }
    }
}
