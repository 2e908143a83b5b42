import SkillGateSkills

/// How a relevance cut was ranked.
public enum SkillRankingMode: Sendable, Hashable {
    /// BM25 fused with embedding similarities (`RelevanceFusion`).
    case hybrid
    /// BM25 alone: no embedding model is configured, or the conversation has no text to embed.
    case lexical
    /// BM25 alone because the embedding model failed or was too slow; `reason` is the
    /// `EmbeddingError.reason` (`embeddings_timeout`, `embeddings_unreachable`, ...).
    case lexicalFallback(reason: String)

    /// The `ranking=` value of `x-skillgate-skills`: `hybrid`, `lexical`, `lexical_fallback(<reason>)`.
    public var label: String {
        switch self {
        case .hybrid: return "hybrid"
        case .lexical: return "lexical"
        case .lexicalFallback(let reason): return "lexical_fallback(\(reason))"
        }
    }

    /// The log's `skills_ranking` value: `hybrid`, `lexical` or `lexical_fallback`.
    public var name: String {
        switch self {
        case .hybrid: return "hybrid"
        case .lexical: return "lexical"
        case .lexicalFallback: return "lexical_fallback"
        }
    }
}

/// The result of `SkillRanker.select`: the cut, and how it was ranked.
public struct SkillRanking: Sendable, Hashable {
    /// Kept and cut names, scores, and whether the cut was blind.
    public var cut: RelevanceCut
    public var mode: SkillRankingMode
    /// What the embedding model said when it failed (no key in it), for the log.
    public var fallbackMessage: String?
    /// Time spent waiting for similarities, when an embedding model was asked.
    public var semanticMilliseconds: Double?
    /// What the selector model chose (or why it did not), when `skill_ranking.selector` is on and
    /// something was cut.
    public var selection: SkillSelection?
    /// With `skill_ranking.examples` and a hybrid ranking: whether the skills' example requests took part
    /// (`used`), or some candidate's examples were still being written (`pending`).
    public var examples: ExampleUse?
    /// With `examples == .pending`: why the latest skill's examples could not be written, if that failed.
    public var examplesError: String?

    /// Whether a hybrid cut compared the request with the skills' example requests.
    public enum ExampleUse: String, Sendable, Hashable {
        case used
        case pending
    }

    public init(cut: RelevanceCut, mode: SkillRankingMode, fallbackMessage: String? = nil, semanticMilliseconds: Double? = nil) {
        self.cut = cut
        self.mode = mode
        self.fallbackMessage = fallbackMessage
        self.semanticMilliseconds = semanticMilliseconds
    }

    /// Whether embedding similarities were fused into the scores.
    public var usedSemantic: Bool { mode == .hybrid }

    /// Why the ranking fell back to BM25 alone (`embeddings_timeout`, ...); `nil` otherwise.
    public var fallbackReason: String? {
        if case .lexicalFallback(let reason) = mode { return reason }
        return nil
    }
}
