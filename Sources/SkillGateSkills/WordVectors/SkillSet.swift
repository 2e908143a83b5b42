#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The skills of one ranking as word vectors see them: each word's weight (inverse document
/// frequency over these skills: `ln(1 + n / (1 + df))`) and each skill's unit vector.
struct SkillSet: Sendable {
    /// The candidates the set was built from (what `SkillSetKey.same` compares).
    let candidates: [SkillCandidate]
    /// Their `SkillDocumentCache` identities, when the set is keyed by them.
    let identities: [Int]?
    let texts: [String]
    /// Table index → number of skills whose text has the word.
    let documentFrequency: [Int: Int]
    /// `texts.count` rows of `dimensions` floats, each of unit length (or zero: no word in the table).
    let vectors: [Float]

    init(candidates: [SkillCandidate], identities: [Int]?, table: WordVectorTable) {
        self.candidates = candidates
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

/// What a skill's `embeddingText` is made of, hashed and compared as UTF-8 bytes (Swift's `String`
/// hashing and equality normalise Unicode, which costs more than the ranking for Chinese text).
enum SkillSetKey {
    /// A cheap key: each text's length and its first and last 16 bytes (a hit is confirmed byte for
    /// byte by `same`, so a collision only costs a rebuild).
    static func combine(_ c: SkillCandidate, into hasher: inout Hasher) {
        func bytes(_ s: String?) {
            guard var s else { hasher.combine(-1); return }
            s.withUTF8 { b in
                hasher.combine(b.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: b.prefix(16))))
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: b.suffix(16))))
            }
        }
        bytes(c.name)
        bytes(c.description ?? c.metadata?.description)
        for k in c.metadata?.keywords ?? [] { bytes(k) }
    }

    static func same(_ a: [SkillCandidate], _ b: [SkillCandidate]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            guard SkillDocumentCache.same(x.name, y.name),
                  SkillDocumentCache.same(x.description ?? x.metadata?.description, y.description ?? y.metadata?.description),
                  (x.metadata?.keywords ?? []).elementsEqual(y.metadata?.keywords ?? [], by: { SkillDocumentCache.same($0, $1) })
            else { return false }
        }
        return true
    }
}
