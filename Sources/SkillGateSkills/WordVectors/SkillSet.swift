#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The skills of one ranking as word vectors see them: each word's weight (inverse document
/// frequency over these skills: `ln(1 + n / (1 + df))`) and each skill's unit vector.
struct SkillSet: Sendable {
    /// The candidates' `SkillDocumentCache` identities (what the set is cached by).
    let identities: [Int]
    let texts: [String]
    /// Table index → number of skills whose text has the word.
    let documentFrequency: [Int: Int]
    /// `texts.count` rows of `dimensions` floats, each of unit length (or zero: no word in the table).
    let vectors: [Float]

    init(candidates: [SkillCandidate], identities: [Int], table: WordVectorTable) {
        self.identities = identities
        let texts = candidates.map(\.embeddingText)
        self.texts = texts
        var df: [Int: Int] = [:]
        var words: [[Int]] = []
        for text in texts {
            var indices: [Int] = []
            WordVectorTokens.forEach(in: text) { token in
                if let i = table.index(of: token) { indices.append(i) }
            }
            for i in Set(indices) { df[i, default: 0] += 1 }
            words.append(indices)
        }
        documentFrequency = df
        let dimensions = table.dimensions
        var vectors = [Float](repeating: 0, count: texts.count * dimensions)
        let n = Float(texts.count)
        vectors.withUnsafeMutableBufferPointer { all in
            for (row, indices) in words.enumerated() {
                let sum = UnsafeMutableBufferPointer(rebasing: all[(row * dimensions)..<((row + 1) * dimensions)])
                for i in indices { table.accumulate(i, weight: Self.weight(df[i] ?? 0, skills: n), into: sum) }
                var s: Float = 0
                for x in sum { s += x * x }
                if s > 0 {
                    let inverse = 1 / s.squareRoot()
                    for d in sum.indices { sum[d] *= inverse }
                }
            }
        }
        self.vectors = vectors
    }

    /// The weight of table word `index` in this set.
    func weight(of index: Int) -> Float {
        Self.weight(documentFrequency[index] ?? 0, skills: Float(texts.count))
    }

    static func weight(_ documentFrequency: Int, skills: Float) -> Float {
        logf(1 + skills / Float(1 + documentFrequency))
    }
}
