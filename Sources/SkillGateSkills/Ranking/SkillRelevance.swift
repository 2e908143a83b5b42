import SkillGateCore

/// A skill that may be shown to the model, as relevance ranking sees it.
public struct SkillCandidate: Sendable, Hashable {
    public var name: String
    /// The description the model would see (the client's tool description).
    public var description: String?
    /// Config metadata (description and keywords), if any.
    public var metadata: SkillMetadata?

    public init(name: String, description: String? = nil, metadata: SkillMetadata? = nil) {
        self.name = name
        self.description = description
        self.metadata = metadata
    }

    /// The searchable terms: the name twice (a name match is the strongest signal), the
    /// description(s) and the keywords.
    public var terms: [String] {
        let nameTerms = SkillTokenizer.terms(name)
        var out = nameTerms + nameTerms
        if let description { out += SkillTokenizer.terms(description) }
        if let d = metadata?.description, d != description { out += SkillTokenizer.terms(d) }
        for k in metadata?.keywords ?? [] { out += SkillTokenizer.terms(k) }
        return out
    }

    /// The searchable document (`terms`, hashed).
    public var document: SkillDocument {
        let nameKeys = SkillTokenizer.termKeys(name)
        var keys = nameKeys + nameKeys
        if let description { keys += SkillTokenizer.termKeys(description) }
        if let d = metadata?.description, d != description { keys += SkillTokenizer.termKeys(d) }
        for k in metadata?.keywords ?? [] { keys += SkillTokenizer.termKeys(k) }
        return SkillDocument(termKeys: keys)
    }
}

/// The result of cutting a visible set down to the most relevant skills.
public struct RelevanceCut: Sendable, Hashable {
    /// Names kept, in the order the candidates were given (stable for provider prompt caches).
    public var kept: [String]
    /// Names cut, most relevant first.
    public var cut: [String]
    /// Each candidate's score, by name (for explanations and tests).
    public var scores: [String: Double]
    /// Whether the cut was made without any signal: no candidate matched the conversation and no
    /// semantic scores were given, so the kept skills are simply the first declared.
    public var blind: Bool = false
}

/// Ranks skills by relevance to the conversation and keeps the top k (pinned always kept).
public enum SkillRelevance {
    /// How many trailing user turns form the query, and their weights (latest first).
    public static let turnWeights: [Double] = [1.0, 0.5, 0.25]

    /// The weighted query terms of the last user turns of `messages` (text blocks only).
    public static func query(from messages: [Message]) -> RelevanceQuery {
        var query = RelevanceQuery()
        var turn = 0
        for message in messages.reversed() where message.role == .user {
            let text = message.text
            if text.isEmpty { continue }  // a turn of tool results only
            let weight = turnWeights[turn]
            for key in SkillTokenizer.termKeys(text) { query.add(key: key, weight: weight) }
            turn += 1
            if turn == turnWeights.count { break }
        }
        return query
    }

    /// Keeps at most `limit` of `candidates`: every pinned candidate, then the highest BM25 scores
    /// for `query`; ties (and zero scores) go to the candidate declared first. When the pinned
    /// candidates alone exceed `limit`, all of them are kept.
    /// `cache` keeps the documents of candidates seen before (pass one that lives across requests).
    /// `semantic`, when given, holds one similarity per candidate (same order) from an embedding
    /// model; it is fused with the lexical scores (`RelevanceFusion`).
    public static func select(_ candidates: [SkillCandidate], query: RelevanceQuery, limit: Int, pinned: Set<String>,
                              cache: SkillDocumentCache? = nil, semantic: [Double]? = nil) -> RelevanceCut {
        let documents = cache?.documents(for: candidates) ?? candidates.map(\.document)
        let lexical = BM25().scores(documents: documents, query: query)
        let blind = semantic == nil && !lexical.contains { $0 > 0 }
        let scores = semantic.map { RelevanceFusion.fuse(lexical: lexical, semantic: $0) } ?? lexical
        var byName: [String: Double] = [:]
        for (c, s) in zip(candidates, scores) { byName[c.name] = s }
        guard candidates.count > limit else {
            return RelevanceCut(kept: candidates.map(\.name), cut: [], scores: byName, blind: false)
        }
        let pinnedCount = candidates.filter { pinned.contains($0.name) }.count
        let order = candidates.indices.filter { !pinned.contains(candidates[$0].name) }
            .sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        let slots = max(0, limit - pinnedCount)
        var keep = Set(order.prefix(slots))
        for i in candidates.indices where pinned.contains(candidates[i].name) { keep.insert(i) }
        return RelevanceCut(kept: candidates.indices.filter { keep.contains($0) }.map { candidates[$0].name },
                            cut: order.dropFirst(slots).map { candidates[$0].name }, scores: byName, blind: blind)
    }
}

extension SkillCandidate {
    /// The text an embedding model sees for this skill: the name as words, then the description
    /// (the client's, else the config's) and the config keywords.
    public var embeddingText: String {
        let words = name.split(whereSeparator: { $0 == "_" || $0 == "-" }).joined(separator: " ")
        var text = words
        if let d = description ?? metadata?.description, !d.isEmpty { text += ": " + d }
        if let k = metadata?.keywords, !k.isEmpty { text += " (" + k.joined(separator: ", ") + ")" }
        return text
    }
}

extension SkillRelevance {
    /// The text an embedding model sees for the conversation: the latest user turn that has text,
    /// then up to two earlier ones (a follow-up such as "and tomorrow?" borrows its topic from
    /// them), newest first, separated by newlines.
    public static func semanticQuery(from messages: [Message]) -> String {
        var parts: [String] = []
        for message in messages.reversed() where message.role == .user {
            let text = message.text
            if text.isEmpty { continue }
            parts.append(text)
            if parts.count == turnWeights.count { break }
        }
        return parts.joined(separator: "\n")
    }
}
