import Synchronization

/// How the gateway's relevance cuts were ranked since start (for a metrics endpoint later).
public final class SkillRankingCounters: Sendable {
    private let hybridCount = Atomic<Int>(0)
    private let lexicalCount = Atomic<Int>(0)
    private let fallbackCount = Atomic<Int>(0)
    private let selectedCount = Atomic<Int>(0)
    private let selectorFailureCount = Atomic<Int>(0)

    public init() {}

    /// Cuts ranked with embeddings.
    public var hybrid: Int { hybridCount.load(ordering: .relaxed) }
    /// Cuts ranked lexically because no embedding model is configured (or nothing to embed).
    public var lexical: Int { lexicalCount.load(ordering: .relaxed) }
    /// Cuts ranked lexically because the embedding model failed or timed out.
    public var fallbacks: Int { fallbackCount.load(ordering: .relaxed) }

    /// Cuts for which the selector model answered.
    public var selected: Int { selectedCount.load(ordering: .relaxed) }
    /// Cuts for which the selector model failed or timed out (the ranking's cut was used).
    public var selectorFailures: Int { selectorFailureCount.load(ordering: .relaxed) }

    func count(_ selection: SkillSelection) {
        switch selection.outcome {
        case .chose: selectedCount.add(1, ordering: .relaxed)
        case .failed: selectorFailureCount.add(1, ordering: .relaxed)
        }
    }

    func count(_ mode: SkillRankingMode) {
        switch mode {
        case .hybrid: hybridCount.add(1, ordering: .relaxed)
        case .lexical: lexicalCount.add(1, ordering: .relaxed)
        case .lexicalFallback: fallbackCount.add(1, ordering: .relaxed)
        }
    }
}
