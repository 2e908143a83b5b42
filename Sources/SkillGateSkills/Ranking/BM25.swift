#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Okapi BM25 over a small corpus (the skills visible to one request).
///
/// `idf = ln(1 + (N - n + 0.5) / (n + 0.5))` (never negative, so a term every skill has still
/// counts a little), `k1 = 1.2`, `b = 0.75`. Query terms carry weights (the latest user turn counts
/// more than earlier ones).
public struct BM25: Sendable {
    public var k1: Double = 1.2
    public var b: Double = 0.75

    public init() {}

    /// One score per document of `documents` (each a list of terms with repetitions) for `query`
    /// (term → weight). Documents with no query term score 0.
    public func scores(documents: [[String]], query: [String: Double]) -> [Double] {
        guard !documents.isEmpty, !query.isEmpty else { return Array(repeating: 0, count: documents.count) }
        var frequencies: [[String: Int]] = []
        frequencies.reserveCapacity(documents.count)
        var documentFrequency: [String: Int] = [:]
        var totalLength = 0
        for doc in documents {
            var tf: [String: Int] = [:]
            for term in doc where query[term] != nil { tf[term, default: 0] += 1 }
            for term in tf.keys { documentFrequency[term, default: 0] += 1 }
            frequencies.append(tf)
            totalLength += doc.count
        }
        let n = Double(documents.count)
        let averageLength = max(1, Double(totalLength) / n)
        var idf: [String: Double] = [:]
        for (term, df) in documentFrequency {
            idf[term] = log(1 + (n - Double(df) + 0.5) / (Double(df) + 0.5))
        }
        return zip(documents, frequencies).map { doc, tf in
            var score = 0.0
            let norm = k1 * (1 - b + b * Double(doc.count) / averageLength)
            for (term, f) in tf {
                let f = Double(f)
                score += (query[term] ?? 0) * (idf[term] ?? 0) * f * (k1 + 1) / (f + norm)
            }
            return score
        }
    }
}
