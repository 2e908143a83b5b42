/// What a task marker says about the task.
public enum MarkerCategory: Int, Sendable, Hashable, CaseIterable {
    /// Asks for rigorous reasoning: "prove", "derive", "step by step", "证明", "推导", "一步一步".
    case reasoning
    /// Mathematics: "theorem", "integral", "eigenvalue", "积分", "矩阵", LaTeX, "∫", "√".
    case math
    /// Programming work: "refactor", "deadlock", "stack trace", "调试", "死锁".
    case code
    /// Design and planning: "architecture", "optimize", "trade-off", "架构", "优化".
    case planning

    /// The name used in config keys, headers and explanations.
    public var name: String {
        switch self {
        case .reasoning: "reasoning"
        case .math: "math"
        case .code: "code"
        case .planning: "planning"
        }
    }
}

/// A word, phrase or symbol that signals a harder task.
///
/// English markers match whole words, case-insensitively (`prove` does not match "improve");
/// several words match with any punctuation or spacing between them ("step-by-step").
/// Chinese markers and symbols match anywhere (Chinese has no spaces between words).
public struct Marker: Sendable, Hashable {
    /// The marker as written in the lexicon (lowercase for English).
    public var text: String
    public var category: MarkerCategory
    /// How strongly one occurrence signals its category, in (0, 1]; the sum per category is capped at 1.
    public var strength: Double

    public init(_ text: String, _ category: MarkerCategory, _ strength: Double) {
        self.text = text
        self.category = category
        self.strength = strength
    }
}

/// A set of markers (by index into `MarkerLexicon.markers`), without allocation.
public struct MarkerSet: Sendable, Hashable {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// The largest number of markers a set can hold.
    public static let capacity = 256

    public init() {}

    public mutating func insert(_ index: Int) {
        let bit = UInt64(1) << UInt64(index & 63)
        switch index >> 6 {
        case 0: bits.0 |= bit
        case 1: bits.1 |= bit
        case 2: bits.2 |= bit
        default: bits.3 |= bit
        }
    }

    public func contains(_ index: Int) -> Bool {
        let bit = UInt64(1) << UInt64(index & 63)
        switch index >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        default: return bits.3 & bit != 0
        }
    }

    public var isEmpty: Bool { bits.0 | bits.1 | bits.2 | bits.3 == 0 }

    /// The indices in the set, ascending.
    public var indices: [Int] { (0..<Self.capacity).filter(contains) }

    public static func == (a: MarkerSet, b: MarkerSet) -> Bool {
        a.bits.0 == b.bits.0 && a.bits.1 == b.bits.1 && a.bits.2 == b.bits.2 && a.bits.3 == b.bits.3
    }

    public func hash(into h: inout Hasher) {
        h.combine(bits.0); h.combine(bits.1); h.combine(bits.2); h.combine(bits.3)
    }
}
