import SkillGateCore

/// A skill that may be shown to the model, as relevance ranking sees it.
public struct SkillCandidate: Sendable, Hashable {
    public var name: String
    /// The description the model would see (the client's tool description).
    public var description: String?
    /// Config metadata (description and keywords), if any.
    public var metadata: SkillMetadata?
    /// The tool's parameter schema: its property names, descriptions and enumerated values are a
    /// field of the document ("city", "due date", "celsius" say what a tool is for too). Read only
    /// when the document is built, so a cached candidate costs nothing extra per request.
    public var schema: ToolSchema?
    /// The schema as a tree (built on each call from a schema kept as text).
    public var parameters: JSONValue? { schema?.value }

    /// What the ranking reads of a client's description and of the parameters' text: 2 KiB from the start and 1 KiB
    /// from the end (decision 0083). Descriptions say what a tool is for in their first sentences; a tool of megabytes
    /// would otherwise be tokenised, embedded and cached whole.
    public static let textWindow = TextWindow(headBytes: 2_048, tailBytes: 1_024)

    /// `description` is kept through `textWindow`.
    public init(name: String, description: String? = nil, metadata: SkillMetadata? = nil, parameters: JSONValue? = nil) {
        self.name = name
        self.description = description.map { Self.textWindow.apply($0) }
        self.metadata = metadata
        self.schema = parameters.map { ToolSchema($0) }
    }

    /// A candidate from a tool definition: its name, description and schema (not parsed here: a candidate
    /// whose document is cached never needs it).
    public init(tool: ToolDefinition, metadata: SkillMetadata? = nil) {
        self.init(name: tool.name, description: tool.description, metadata: metadata)
        self.schema = tool.schema
    }

    /// The parameters as searchable text, through `textWindow` (`nil` when there are none).
    public var parameterText: String? { parameters.flatMap(Self.parameterText).map { Self.textWindow.apply($0) } }

    /// The searchable terms: the name twice (a name match is the strongest signal), the
    /// description(s), the keywords and the parameters.
    public var terms: [String] {
        let nameTerms = SkillTokenizer.terms(name)
        var out = nameTerms + nameTerms
        if let description { out += SkillTokenizer.terms(description) }
        if let d = metadata?.description, d != description { out += SkillTokenizer.terms(d) }
        for k in metadata?.keywords ?? [] { out += SkillTokenizer.terms(k) }
        if let p = parameterText { out += SkillTokenizer.terms(p) }
        return out
    }

    /// The searchable document (`terms`, hashed).
    public var document: SkillDocument {
        let nameKeys = SkillTokenizer.termKeys(name)
        var keys = nameKeys + nameKeys
        if let description { keys += SkillTokenizer.termKeys(description) }
        if let d = metadata?.description, d != description { keys += SkillTokenizer.termKeys(d) }
        for k in metadata?.keywords ?? [] { keys += SkillTokenizer.termKeys(k) }
        if let p = parameterText { keys += SkillTokenizer.termKeys(p) }
        return SkillDocument(termKeys: keys)
    }

    /// Property names, descriptions and string enum values of a JSON Schema's top-level
    /// properties (and of objects nested one level), space-separated; `nil` when there are none.
    static func parameterText(_ schema: JSONValue) -> String? {
        var parts: [String] = []
        func walk(_ s: JSONValue, depth: Int) {
            guard let properties = s["properties"]?.objectValue else { return }
            for p in properties {
                parts.append(p.key)
                if let d = p.value["description"]?.stringValue { parts.append(d) }
                for e in p.value["enum"]?.arrayValue ?? [] { if let v = e.stringValue { parts.append(v) } }
                if depth == 0 {
                    walk(p.value, depth: 1)
                    if let items = p.value["items"] { walk(items, depth: 1) }
                }
            }
        }
        walk(schema, depth: 0)
        return parts.isEmpty ? nil : parts.joined(separator: " ")
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

    public init(kept: [String], cut: [String], scores: [String: Double], blind: Bool = false) {
        self.kept = kept
        self.cut = cut
        self.scores = scores
        self.blind = blind
    }
}

/// Ranks skills by relevance to the conversation and keeps the top k (pinned always kept).
public enum SkillRelevance {
    /// How many trailing user turns form the query, and their weights (latest first).
    public static let turnWeights: [Double] = [1.0, 0.5, 0.25]

    /// What the ranking reads of each turn's text (decision 0078): 4 KiB from its start and 4 KiB from its end. What a
    /// turn asks for sits there, and the labelled corpora's turns are far shorter; a 3 MB paste would otherwise be
    /// tokenised on the event loop for tens of milliseconds.
    public static let turnWindow = TextWindow(headBytes: 4_096, tailBytes: 4_096)

    /// What the tools the model called recently count in the query (latest first), by name.
    public static let recentCallWeights: [Double] = [0.5, 0.25, 0.125]
    /// What the latest assistant text counts (it often names the topic a follow-up refers to).
    public static let assistantTextWeight = 0.2

    /// The weighted query terms of the conversation: the last user turns (text blocks only), the
    /// names of the tools called recently and the latest assistant text, each with a weight that
    /// decays with distance from the end (a follow-up such as "and tomorrow?" borrows its topic).
    public static func query(from messages: [Message]) -> RelevanceQuery {
        var query = RelevanceQuery()
        var turn = 0, calls = 0
        var sawAssistantText = false
        for message in messages.reversed() {
            switch message.role {
            case .user:
                guard turn < turnWeights.count else { continue }
                let text = turnWindow.apply(message.text)
                if text.isEmpty { continue }  // a turn of tool results only
                for key in SkillTokenizer.termKeys(text) { query.add(key: key, weight: turnWeights[turn]) }
                turn += 1
            case .assistant:
                for block in message.content.reversed() {
                    guard case .toolCall(let call) = block, calls < recentCallWeights.count else { continue }
                    for key in SkillTokenizer.termKeys(call.name) { query.add(key: key, weight: recentCallWeights[calls]) }
                    calls += 1
                }
                let text = message.text
                if !sawAssistantText, !text.isEmpty {
                    sawAssistantText = true
                    let text = turnWindow.apply(text)
                    for key in SkillTokenizer.termKeys(text) { query.add(key: key, weight: assistantTextWeight) }
                }
            default: break
            }
            if turn == turnWeights.count && calls == recentCallWeights.count && sawAssistantText { break }
        }
        return query
    }

    /// Keeps at most `limit` of `candidates`: every pinned candidate, then the highest BM25 scores
    /// for `query`; ties (and zero scores) go to the candidate declared first. When the pinned
    /// candidates alone exceed `limit`, all of them are kept.
    /// `cache` keeps the documents of candidates seen before (pass one that lives across requests).
    /// `semantic`, when given, holds one similarity per candidate (same order) from an embedding
    /// model; it is fused with the lexical scores (`RelevanceFusion`).
    /// `lexicalWeight` is BM25's share of the fused score.
    public static func select(_ candidates: [SkillCandidate], query: RelevanceQuery, limit: Int, pinned: Set<String>,
                              cache: SkillDocumentCache? = nil, semantic: [Double]? = nil,
                              lexicalWeight: Double = RelevanceFusion.lexicalWeight) -> RelevanceCut {
        select(candidates, documents: cache?.documents(for: candidates) ?? candidates.map(\.document), query: query, limit: limit,
               pinned: pinned, semantic: semantic, lexicalWeight: lexicalWeight)
    }

    /// `select` over the candidates' documents, already looked up (`SkillDocumentCache.entries(for:)`).
    public static func select(_ candidates: [SkillCandidate], documents: [SkillDocument], query: RelevanceQuery, limit: Int,
                              pinned: Set<String>, semantic: [Double]? = nil,
                              lexicalWeight: Double = RelevanceFusion.lexicalWeight) -> RelevanceCut {
        let lexical = BM25().scores(documents: documents, query: query)
        let blind = semantic == nil && !lexical.contains { $0 > 0 }
        let scores = semantic.map { RelevanceFusion.fuse(lexical: lexical, semantic: $0, lexicalWeight: lexicalWeight) } ?? lexical
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
    /// them), newest first, then the name of the tool the model called last, if any (as words:
    /// "get weather forecast"), separated by newlines. Each turn is read through `turnWindow`.
    public static func semanticQuery(from messages: [Message]) -> String {
        var parts: [String] = []
        var lastCall: String?
        for message in messages.reversed() {
            if message.role == .assistant, lastCall == nil, parts.count < turnWeights.count,
               let call = message.content.last(where: { $0.toolCall != nil })?.toolCall {
                lastCall = call.name.split(whereSeparator: { $0 == "_" || $0 == "-" }).joined(separator: " ")
            }
            guard message.role == .user else { continue }
            let text = turnWindow.apply(message.text)
            if text.isEmpty { continue }
            parts.append(text)
            if parts.count == turnWeights.count { break }
        }
        if let lastCall { parts.append(lastCall) }
        return parts.joined(separator: "\n")
    }
}
