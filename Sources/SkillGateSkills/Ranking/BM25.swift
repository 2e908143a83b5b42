#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A document's terms, hashed and counted once, so ranking compares integers (and a cache can
/// keep the documents of skills that come back request after request).
public struct SkillDocument: Sendable, Hashable {
    /// Distinct term hashes, ascending.
    public let keys: [Int]
    /// How often each term of `keys` occurs.
    public let counts: [Int]
    /// The number of terms, repetitions included.
    public let length: Int

    public init(terms: [String]) {
        self.init(termKeys: terms.map(Self.key))
    }

    /// A document from term keys (`SkillTokenizer.termKeys`), repetitions included.
    public init(termKeys: [Int]) {
        let sorted = termKeys.sorted()
        var keys: [Int] = [], counts: [Int] = []
        for k in sorted {
            if keys.last == k { counts[counts.count - 1] += 1 } else { keys.append(k); counts.append(1) }
        }
        self.keys = keys
        self.counts = counts
        length = termKeys.count
    }

    /// A term's key: a hash of its UTF-8 bytes (no Unicode normalisation, unlike `String` hashing,
    /// which is slow for Chinese text; the tokenizer already lower-cases).
    public static func key(_ term: String) -> Int {
        var t = term
        return t.withUTF8 { key($0) }
    }

    /// The key of a term given as UTF-8 bytes.
    public static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return hasher.finalize()
    }
}

/// Weighted query terms, keyed like `SkillDocument` terms.
public struct RelevanceQuery: Sendable, Hashable {
    /// Term key → weight.
    public private(set) var weights: [Int: Double] = [:]

    public init() {}

    /// A query from terms and their weights.
    public init(_ terms: [String: Double]) {
        for (t, w) in terms { add(t, weight: w) }
    }

    /// Adds `term`, keeping the higher weight when it is already there.
    public mutating func add(_ term: String, weight: Double) {
        add(key: SkillDocument.key(term), weight: weight)
    }

    /// Adds a term by its key.
    public mutating func add(key k: Int, weight: Double) {
        weights[k] = max(weights[k] ?? 0, weight)
    }

    /// The weight of `term` as the tokenizer reads it (stemmed: `q["weather"]` finds `weath`),
    /// if the query has it.
    public subscript(term: String) -> Double? {
        guard let key = SkillTokenizer.termKeys(term).first else { return nil }
        return weights[key]
    }
    public var isEmpty: Bool { weights.isEmpty }
}

/// Okapi BM25 over a small corpus (the skills visible to one request).
///
/// `idf = ln(1 + (N - n + 0.5) / (n + 0.5))` (never negative, so a term every skill has still
/// counts a little), `k1 = 1.2`, `b = 0.75`. Query terms carry weights (the latest user turn counts
/// more than earlier ones).
public struct BM25: Sendable {
    public var k1: Double = 1.2
    public var b: Double = 0.75

    public init() {}

    /// One score per document for `query` (term → weight). Documents with no query term score 0.
    public func scores(documents: [SkillDocument], query: RelevanceQuery) -> [Double] {
        guard !documents.isEmpty, !query.isEmpty else { return Array(repeating: 0, count: documents.count) }
        let q = query.weights.map { (key: $0.key, weight: $0.value) }.sorted { $0.key < $1.key }
        // Matches per document: (query term index, term frequency), found by merging sorted keys.
        var matchStart: [Int] = [0]
        var matchTerm: [Int] = []
        var matchCount: [Int] = []
        var documentFrequency = [Int](repeating: 0, count: q.count)
        var totalLength = 0
        for doc in documents {
            var i = 0, j = 0
            while i < doc.keys.count, j < q.count {
                if doc.keys[i] < q[j].key { i += 1 } else if doc.keys[i] > q[j].key { j += 1 } else {
                    matchTerm.append(j)
                    matchCount.append(doc.counts[i])
                    documentFrequency[j] += 1
                    i += 1
                    j += 1
                }
            }
            matchStart.append(matchTerm.count)
            totalLength += doc.length
        }
        let n = Double(documents.count)
        let averageLength = max(1, Double(totalLength) / n)
        let idf = documentFrequency.map { df in log(1 + (n - Double(df) + 0.5) / (Double(df) + 0.5)) }
        return documents.indices.map { d in
            let norm = k1 * (1 - b + b * Double(documents[d].length) / averageLength)
            var score = 0.0
            for m in matchStart[d]..<matchStart[d + 1] {
                let f = Double(matchCount[m])
                score += q[matchTerm[m]].weight * idf[matchTerm[m]] * f * (k1 + 1) / (f + norm)
            }
            return score
        }
    }

    /// Scores for documents given as term lists (convenience for tests and one-off use).
    public func scores(documents: [[String]], query: [String: Double]) -> [Double] {
        scores(documents: documents.map(SkillDocument.init(terms:)), query: RelevanceQuery(query))
    }
}
