/// A scored feature of a task: its config key (`routing.weights.<key>`), the name in
/// explanations, and its default weight.
public enum RoutingFeature: String, Sendable, Hashable, CaseIterable {
    case reasoning
    case math
    case code
    case codeBlocks = "code_blocks"
    case planning
    case promptSize = "prompt_size"
    case depth
    case tools
    case toolResult = "tool_result"
    case structuredOutput = "structured_output"
    case maxTokens = "max_tokens"
    case thinking
    case scenarioDefault = "scenario_default"

    /// Position in `allCases` (for array-backed weight tables).
    var ordinal: Int {
        switch self {
        case .reasoning: 0
        case .math: 1
        case .code: 2
        case .codeBlocks: 3
        case .planning: 4
        case .promptSize: 5
        case .depth: 6
        case .tools: 7
        case .toolResult: 8
        case .structuredOutput: 9
        case .maxTokens: 10
        case .thinking: 11
        case .scenarioDefault: 12
        }
    }

    /// The default weight; docs/decisions/0005-auto-routing.md says why.
    public var defaultWeight: Double {
        switch self {
        case .reasoning: 0.7
        case .math: 0.5
        case .code: 0.4
        case .codeBlocks: 0.2
        case .planning: 0.4
        case .promptSize: 0.3
        case .depth: 0.15
        case .tools: 0.15
        case .toolResult: -0.1
        case .structuredOutput: 0.15
        case .maxTokens: 0.2
        case .thinking: 0.7
        case .scenarioDefault: 0.15
        }
    }

    /// How the feature's level (0...1, or -1...1 for the scenario's lean) is computed, in words.
    public var levelDescription: String {
        switch self {
        case .reasoning, .math, .code, .planning: "summed marker strength, capped at 1"
        case .codeBlocks: "1 with any fenced code block"
        case .promptSize: "estimated tokens from \(Self.promptTokens.lowerBound) (0) to \(Self.promptTokens.upperBound) (1)"
        case .depth: "messages from \(Self.depthMessages.lowerBound) (0) to \(Self.depthMessages.upperBound) (1)"
        case .tools: "tools offered from 0 to \(Self.toolCount.upperBound) (1)"
        case .toolResult: "1 when answering tool results"
        case .structuredOutput: "1 when response_format asks for JSON"
        case .maxTokens: "max_tokens from \(Self.maxTokensRange.lowerBound) (0) to \(Self.maxTokensRange.upperBound) (1)"
        case .thinking: "1 when reasoning is requested"
        case .scenarioDefault: "+1 when the scenario defaults to strong, -1 to light, 0 to auto"
        }
    }

    /// The ramps of the size features (level 0 at the lower bound, 1 at the upper).
    public static let promptTokens = 1_500.0...12_000.0
    public static let depthMessages = 6.0...30.0
    public static let toolCount = 0.0...10.0
    public static let maxTokensRange = 1_000.0...8_000.0

    /// 0 below the range, 1 above it, linear inside.
    @inline(__always)
    static func ramp(_ x: Double, _ r: ClosedRange<Double>) -> Double {
        x <= r.lowerBound ? 0 : (x >= r.upperBound ? 1 : (x - r.lowerBound) / (r.upperBound - r.lowerBound))
    }
}
