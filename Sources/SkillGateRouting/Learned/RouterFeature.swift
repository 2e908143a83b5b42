/// A named, explainable feature of the learned router, with how its level (0...1) is computed.
/// The model also sees hashed word and character n-grams (`RouterInput`); these features are the
/// part a person can read in `route explain` and `x-skillgate-route`.
public enum RouterFeature: Int, Sendable, Hashable, CaseIterable {
    case reasoning, math, code, planning
    case codeBlocks
    case taskSize
    case contextSize
    case depth
    case tools
    case toolResult
    case structuredOutput
    case maxTokens
    case thinking
    case asks
    case constraints
    case numbers
    case data
    case outputLength
    case brevity
    case lightIntent
    case legal
    case performance
    case chinese
    case contextMarkers
    case technicalContext
    case quantitative
    case expertDomain
    case pasted
    case lightOverPasted

    /// The name in model files, explanations and the `x-skillgate-route` header.
    public var name: String {
        switch self {
        case .reasoning: "reasoning"
        case .math: "math"
        case .code: "code"
        case .planning: "planning"
        case .codeBlocks: "code_blocks"
        case .taskSize: "task_size"
        case .contextSize: "context_size"
        case .depth: "depth"
        case .tools: "tools"
        case .toolResult: "tool_result"
        case .structuredOutput: "structured_output"
        case .maxTokens: "max_tokens"
        case .thinking: "thinking"
        case .asks: "asks"
        case .constraints: "constraints"
        case .numbers: "numbers"
        case .data: "data"
        case .outputLength: "output_length"
        case .brevity: "brevity"
        case .lightIntent: "light_intent"
        case .legal: "legal"
        case .performance: "performance"
        case .chinese: "chinese"
        case .contextMarkers: "context_markers"
        case .technicalContext: "technical_context"
        case .quantitative: "quantitative"
        case .expertDomain: "expert_domain"
        case .pasted: "pasted"
        case .lightOverPasted: "light_over_pasted"
        }
    }

    /// How the level is computed, in words (for `route explain` and the decision record).
    public var levelDescription: String {
        switch self {
        case .reasoning, .math, .code, .planning: "summed marker strength in the task, capped at 1"
        case .codeBlocks: "1 with a fenced code block in the task"
        case .taskSize: "log2(1 + task tokens) / 12, capped at 1"
        case .contextSize: "log2(1 + conversation tokens) / 14, capped at 1"
        case .depth: "messages / 12, capped at 1"
        case .tools: "tools offered / 10, capped at 1"
        case .toolResult: "1 when answering tool results"
        case .structuredOutput: "1 when JSON output is requested"
        case .maxTokens: "max_tokens from 1000 (0) to 8000 (1)"
        case .thinking: "1 when reasoning is requested"
        case .asks: "joined asks, extra questions and list items / 5"
        case .constraints: "requirement and limit phrases / 5"
        case .numbers: "numbers in the task / 12"
        case .data: "lines of tabular data (2+ of , | ; tab) / 5"
        case .outputLength: "phrases asking for a long or complete answer / 3"
        case .brevity: "phrases asking for a short answer / 2"
        case .lightIntent: "translate, rewrite, summarise, greet, thank, define / 2"
        case .legal: "contract and legal terms / 2"
        case .performance: "performance and scale terms / 2"
        case .chinese: "share of CJK characters among the task's words and characters"
        case .contextMarkers: "marker strength of the two earlier user turns, capped at 1"
        case .technicalContext: "1 when an earlier assistant turn contained code"
        case .quantitative: "counting, probability and money-maths phrases / 2"
        case .expertDomain: "medical, tax and regulatory terms / 2"
        case .pasted: "share of the task after its instruction (a colon or the first line), for tasks over 300 bytes"
        case .lightOverPasted: "light_intent x pasted: a light instruction over pasted material"
        }
    }

    /// The feature called `name`, if any.
    public init?(name: String) {
        guard let f = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = f
    }
}
