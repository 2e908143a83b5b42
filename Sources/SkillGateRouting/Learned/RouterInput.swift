#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkillGateCore

/// A request as the learned router sees it: the named feature levels and the hashed n-grams.
///
/// The task is the latest user message with text; the two user turns before it form the context
/// (their n-grams are hashed apart from the task's and count half, so "now add tests for it" can
/// borrow weight from the code it follows).
public struct RouterInput: Sendable, Hashable {
    /// Levels in `RouterFeature.allCases` order.
    public var levels: [Double]
    /// Distinct n-gram buckets of the task and the context, with their values.
    public var buckets: [Int32]
    public var values: [Float]
    /// `buckets[..<taskGramCount]` are the task's; the rest the context's.
    public var taskGramCount: Int
    /// The classic features (markers, sizes), also used for explanations.
    public var task: TaskFeatures

    /// Seeds that keep the task's and the context's n-grams in different buckets.
    static let taskSeed: UInt64 = 0x5EED_7A5C
    static let contextSeed: UInt64 = 0xC0_47E8_7000
    /// What a context n-gram counts relative to a task n-gram.
    static let contextScale: Float = 0.5

    public subscript(feature: RouterFeature) -> Double { levels[feature.rawValue] }

    /// What the router reads of each user turn (decision 0078): 16 KiB from the start and 16 KiB from the end. A task
    /// cut to it still has the most task size the features count (`taskSize` is full from ~4,100 estimated tokens,
    /// ~16 KB), and every text of the labelled corpora is far shorter.
    public static let textWindow = TextWindow(headBytes: 16_384, tailBytes: 16_384)

    /// Extracts the input of `request` for a model with `hashBits`-bit n-gram buckets.
    public init(request: ChatRequest, hashBits: Int) {
        task = TaskFeatures(request: request)
        let (fullTask, fullContext, technical) = Self.texts(of: request)
        let taskText = Self.textWindow.apply(fullTask)
        let context = fullContext.map { Self.textWindow.apply($0) }
        var t = TextSignals(seed: Self.taskSeed)
        t.scan(taskText)
        var c = TextSignals(seed: Self.contextSeed)
        var contextScan = MarkerScan()
        for text in context { c.scan(text); contextScan.scan(text) }

        var levels = [Double](repeating: 0, count: RouterFeature.allCases.count)
        func set(_ f: RouterFeature, _ v: Double) { levels[f.rawValue] = v }
        let s = task.scan
        set(.reasoning, min(1, s.strengths.reasoning))
        set(.math, min(1, s.strengths.math))
        set(.code, min(1, s.strengths.code))
        set(.planning, min(1, s.strengths.planning))
        set(.codeBlocks, s.codeFences > 0 ? 1 : 0)
        let taskTokens = Double(t.bytes - 3 * t.cjkCharacters) / 4 + Double(t.cjkCharacters) * 0.75
        set(.taskSize, min(1, log2(1 + max(0, taskTokens)) / 12))
        set(.contextSize, min(1, log2(1 + Double(task.estimatedTokens)) / 14))
        set(.depth, min(1, Double(task.messages) / 12))
        set(.tools, min(1, Double(task.toolsOffered) / 10))
        set(.toolResult, task.answersToolResult ? 1 : 0)
        set(.structuredOutput, task.structuredOutput ? 1 : 0)
        set(.maxTokens, RoutingFeature.ramp(Double(task.maxTokens ?? 0), RoutingFeature.maxTokensRange))
        set(.thinking, task.thinking ? 1 : 0)
        let d = t.demand
        let asks = d[DemandCategory.asks.rawValue] + max(0, t.questionMarks - 1) + t.listItems + t.enumerationCommas / 2
        set(.asks, min(1, Double(asks) / 5))
        set(.constraints, min(1, Double(d[DemandCategory.constraints.rawValue]) / 5))
        set(.numbers, min(1, Double(t.numbers) / 12))
        set(.data, min(1, Double(t.dataLines) / 5))
        set(.outputLength, min(1, Double(d[DemandCategory.outputLength.rawValue]) / 3))
        set(.brevity, min(1, Double(d[DemandCategory.brevity.rawValue]) / 2))
        set(.lightIntent, min(1, Double(d[DemandCategory.lightIntent.rawValue]) / 2))
        set(.legal, min(1, Double(d[DemandCategory.legal.rawValue]) / 2))
        set(.performance, min(1, Double(d[DemandCategory.performance.rawValue]) / 2))
        set(.chinese, t.words + t.cjkCharacters == 0 ? 0 : Double(t.cjkCharacters) / Double(t.words + t.cjkCharacters))
        set(.quantitative, min(1, Double(d[DemandCategory.quantitative.rawValue]) / 2))
        set(.expertDomain, min(1, Double(d[DemandCategory.expertDomain.rawValue]) / 2))
        let pasted = Self.pastedShare(fullTask)
        set(.pasted, pasted)
        set(.lightOverPasted, levels[RouterFeature.lightIntent.rawValue] * pasted)
        let cs = contextScan.strengths
        set(.contextMarkers, min(1, cs.reasoning + cs.math + cs.code + cs.planning))
        set(.technicalContext, technical ? 1 : 0)
        self.levels = levels

        // Distinct buckets, each text's n-grams scaled to unit length (a long prompt's many
        // n-grams do not outweigh the named features).
        let shift = UInt64(64 - hashBits)
        var pairs: [(Int32, Float)] = []
        pairs.reserveCapacity(t.grams.count + c.grams.count)
        func add(_ grams: [UInt64], scale: Float) {
            guard !grams.isEmpty else { return }
            var b = grams.map { Int32(truncatingIfNeeded: $0 >> shift) }
            b.sort()
            var distinct = 0
            for i in b.indices where i == 0 || b[i] != b[i - 1] { distinct += 1 }
            let v = scale / Float(distinct).squareRoot()
            for i in b.indices where i == 0 || b[i] != b[i - 1] { pairs.append((b[i], v)) }
        }
        add(t.grams, scale: 1)
        taskGramCount = pairs.count
        add(c.grams, scale: Self.contextScale)
        buckets = pairs.map(\.0)
        values = pairs.map(\.1)
    }

    /// How much of the task is material after its instruction: the bytes after the first colon
    /// (`:` or `：`) or line break within the first 200 bytes, as a share of the task, for tasks
    /// over 300 bytes (0 otherwise). "Shorten this: <pasted email>" is short work on long text.
    static func pastedShare(_ text: String) -> Double {
        let bytes = text.utf8
        guard bytes.count > 300 else { return 0 }
        var i = 0
        for b in bytes.prefix(200) {
            i += 1
            if b == 0x3A || b == 0x0A { return Double(bytes.count - i) / Double(bytes.count) }
            if b == 0xBC, i >= 3, Array(bytes.prefix(i).suffix(3)) == [0xEF, 0xBC, 0x9A] { return Double(bytes.count - i) / Double(bytes.count) }
        }
        return 0
    }

    /// The task (the latest user message with text), the context (up to two user turns before
    /// it, newest first), and whether an assistant turn before the task contained code (a fence within its window).
    static func texts(of request: ChatRequest) -> (task: String, context: [String], technical: Bool) {
        var task = "", context: [String] = [], technical = false, sawTask = false
        for message in request.messages.reversed() {
            switch message.role {
            case .user:
                let text = message.text
                if text.isEmpty { continue }
                if !sawTask { task = text; sawTask = true } else if context.count < 2 { context.append(text) }
            case .assistant:
                if sawTask, !technical, textWindow.apply(message.text).contains("```") { technical = true }
            default: break
            }
        }
        return (task, context, technical)
    }
}
