import SkillGateCore
import Synchronization

/// Similarities between a conversation and skills from static word vectors (decision 0040): a text's
/// vector is the sum of its words' vectors, each weighted by how rare the word is among the skills
/// being ranked (a word every skill has says nothing about which one is meant), and skills are
/// compared with the conversation by cosine. No server and no network: the table is built into the
/// binary, so it works where no embedding model is configured and when one fails.
///
/// It reaches what words alone cannot — "will it rain this weekend" meets a weather forecast, and
/// "明天会下雨吗" meets an English description — though less surely than a sentence embedding model.
/// The skills' vectors depend on the whole set being ranked (the weights), so they are cached per
/// set of skills: a client that declares the same tools on every request pays only for its query.
public final class WordVectorScorer: Sendable {
    /// BM25's share when these similarities are fused with it (chosen on the evaluation corpus's dev split).
    public static let lexicalWeight = 0.55

    /// The table the vectors come from.
    public let table: WordVectorTable
    /// The most skill sets kept (when full, the cache starts over).
    public let capacity: Int
    /// The most skills the cached sets hold together (each a vector of the table's dimensions): past it the cache
    /// starts over too, so clients declaring ever-new large tool lists cannot grow it by their size (decision 0083).
    public let maxSkills: Int
    private struct Sets {
        var byKey: [Int: SkillSet] = [:]
        var skills = 0
    }
    private let skillSets = Mutex(Sets())
    /// Identities for callers that bring none (`similarities` without `identities`).
    private let documents = SkillDocumentCache()

    /// A scorer over `table`.
    public init(table: WordVectorTable, capacity: Int = 64, maxSkills: Int = 16_384) {
        self.table = table
        self.capacity = capacity
        self.maxSkills = maxSkills
    }

    /// A scorer over the built-in table (`nil` if the binary's table is unusable).
    public static let builtIn: WordVectorScorer? = WordVectorTable.builtIn.map { WordVectorScorer(table: $0) }

    /// One cosine similarity per candidate (same order), or `nil` when no word of the conversation's
    /// recent turns is in the table (nothing to compare). The query is the text an embedding model
    /// would see (`SkillRelevance.semanticQuery`: the last user turns and the tool called last), every
    /// part weighing the same (on the corpus's dev split, turns decaying as BM25's do lost two follow-ups
    /// and gained nothing). `identities` (from `SkillDocumentCache.entries(for:)`) name the candidates,
    /// so this set's cached vectors are found without comparing texts; without them the scorer's own
    /// document cache names them.
    public func similarities(messages: [Message], candidates: [SkillCandidate], identities: [Int]? = nil) -> [Double]? {
        similarities(query: [(SkillRelevance.semanticQuery(from: messages), 1)], candidates: candidates, identities: identities)
    }

    /// One cosine similarity per candidate between `query` (texts with weights) and each candidate's
    /// `embeddingText`; `nil` when no query word is in the table.
    public func similarities(query: [(text: String, weight: Float)], candidates: [SkillCandidate], identities: [Int]? = nil) -> [Double]? {
        guard !candidates.isEmpty else { return [] }
        let names = identities?.count == candidates.count ? identities! : documents.entries(for: candidates).identities
        let set = skillSet(for: candidates, identities: names)
        let dimensions = table.dimensions
        var q = [Float](repeating: 0, count: dimensions)
        var found = false
        q.withUnsafeMutableBufferPointer { sum in
            for (text, weight) in query {
                WordVectorTokens.forEach(in: text) { token in
                    guard let i = table.index(of: token) else { return }
                    found = true
                    table.accumulate(i, weight: weight * set.weight(of: i), into: sum)
                }
            }
        }
        guard found else { return nil }
        let norm = Self.norm(q)
        guard norm > 0 else { return nil }
        return set.vectors.withUnsafeBufferPointer { rows in
            q.withUnsafeBufferPointer { query in
                (0..<candidates.count).map { c in
                    Double(Self.dot(UnsafeBufferPointer(rebasing: rows[(c * dimensions)..<((c + 1) * dimensions)]), query) / norm)
                }
            }
        }
    }

    /// How many skill sets are cached.
    public var cachedSets: Int { skillSets.locked { $0.byKey.count } }

    /// How many skills the cached sets hold together.
    public var cachedSkills: Int { skillSets.locked { $0.skills } }

    /// The vectors of `candidates`' texts and the word weights of the set, cached by the candidates'
    /// identities, so a request that declares the same tools builds no text.
    private func skillSet(for candidates: [SkillCandidate], identities: [Int]) -> SkillSet {
        var hasher = Hasher()
        for i in identities { hasher.combine(i) }
        let key = hasher.finalize()
        if let hit = skillSets.locked({ $0.byKey[key] }), hit.identities == identities { return hit }
        let built = SkillSet(candidates: candidates, identities: identities, table: table)
        skillSets.locked { sets in
            if sets.byKey.count >= capacity || sets.skills + identities.count > maxSkills {
                sets.byKey.removeAll(keepingCapacity: true)
                sets.skills = 0
            }
            if let replaced = sets.byKey.updateValue(built, forKey: key) { sets.skills -= replaced.identities.count }
            sets.skills += identities.count
        }
        return built
    }

    /// The dot product of two vectors of equal length, eight lanes at a time.
    static func dot(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>) -> Float {
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return 0 }
        var lanes = SIMD8<Float>()
        var i = 0
        while i + 8 <= a.count {
            lanes += UnsafeRawPointer(pa + i).loadUnaligned(as: SIMD8<Float>.self) * UnsafeRawPointer(pb + i).loadUnaligned(as: SIMD8<Float>.self)
            i += 8
        }
        var sum = lanes.sum()
        while i < a.count {
            sum += a[i] * b[i]
            i += 1
        }
        return sum
    }

    static func norm(_ v: [Float]) -> Float {
        var s: Float = 0
        for x in v { s += x * x }
        return s.squareRoot()
    }
}
