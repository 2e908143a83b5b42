/// Combines lexical (BM25) and semantic (embedding similarity) scores of the same candidates.
///
/// Each list is scaled to 0...1 over the candidates of one request (BM25 by its maximum, since 0
/// means "no shared term"; similarities min–max, since embedding models place unrelated texts well
/// above 0), then mixed: `lexicalWeight × lexical + (1 − lexicalWeight) × semantic`.
public enum RelevanceFusion {
    /// The lexical share of the fused score (tuned on the evaluation corpus's dev split; decision 0018).
    public static let lexicalWeight = 0.3

    /// The fused scores; `semantic` must have one entry per lexical score (extra or missing
    /// entries count as the lowest similarity).
    public static func fuse(lexical: [Double], semantic: [Double], lexicalWeight: Double = lexicalWeight) -> [Double] {
        let lexMax = lexical.max() ?? 0
        let semMin = semantic.min() ?? 0, semMax = semantic.max() ?? 0
        let semSpan = semMax - semMin
        return lexical.indices.map { i in
            let l = lexMax > 0 ? lexical[i] / lexMax : 0
            let s = i < semantic.count && semSpan > 0 ? (semantic[i] - semMin) / semSpan : 0
            return lexicalWeight * l + (1 - lexicalWeight) * s
        }
    }
}
