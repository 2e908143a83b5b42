/// Vector arithmetic for similarities, summed in `Double` (a `Float` sum of large values overflows to
/// infinity, and `inf / inf` is a NaN cosine; decision 0102).
enum VectorMath {
    /// The cosine similarity of `query` with each of `documents` (0 for a zero vector; NaN when a
    /// value is not finite, which `FiniteScores` then catches). Vectors must have the query's length.
    static func cosines(_ query: [Float], _ documents: [[Float]]) -> [Double] {
        let qNorm = norm(query)
        return documents.map { d in
            let n = qNorm * norm(d)
            return n == 0 ? 0 : dot(query, d) / n
        }
    }

    /// `a · b` over their common length, each product and the sum in `Double`, without allocating.
    static func dot(_ a: [Float], _ b: [Float]) -> Double {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var sum = 0.0
                for i in 0..<min(a.count, b.count) { sum += Double(a[i]) * Double(b[i]) }
                return sum
            }
        }
    }

    static func norm(_ a: [Float]) -> Double { dot(a, a).squareRoot() }
}
