/// Vector arithmetic for similarities.
enum VectorMath {
    /// The cosine similarity of `query` with each of `documents` (0 for a zero vector). Vectors
    /// must have the query's length.
    static func cosines(_ query: [Float], _ documents: [[Float]]) -> [Double] {
        let qNorm = norm(query)
        return documents.map { d in
            let n = qNorm * norm(d)
            return n > 0 ? dot(query, d) / n : 0
        }
    }

    static func dot(_ a: [Float], _ b: [Float]) -> Double {
        var sum: Float = 0
        for i in 0..<min(a.count, b.count) { sum += a[i] * b[i] }
        return Double(sum)
    }

    static func norm(_ a: [Float]) -> Double { dot(a, a).squareRoot() }
}
