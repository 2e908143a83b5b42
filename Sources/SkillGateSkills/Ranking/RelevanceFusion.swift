/// Combines lexical (BM25) and semantic (embedding similarity) scores of the same candidates.
///
/// Each list is scaled to 0...1 over the candidates of one request (BM25 by its maximum, since 0
/// means "no shared term"; similarities min–max, since embedding models place unrelated texts well
/// above 0), then mixed: `lexicalWeight × lexical + (1 − lexicalWeight) × semantic`.
public enum RelevanceFusion {
    /// The lexical share of the fused score (tuned on the evaluation corpus's dev split; decision 0018).
    public static let lexicalWeight = 0.3

    /// The fused scores; `semantic` must have one entry per lexical score (extra or missing
    /// entries, and NaN or infinite ones, count as the lowest similarity; decision 0102).
    public static func fuse(lexical: [Double], semantic: [Double], lexicalWeight: Double = lexicalWeight) -> [Double] {
        let lexMax = lexical.max() ?? 0
        let s = minMax(semantic)
        return lexical.indices.map { i in
            let l = lexMax > 0 ? lexical[i] / lexMax : 0
            return lexicalWeight * l + (1 - lexicalWeight) * (i < s.count ? s[i] : 0)
        }
    }
}

extension RelevanceFusion {
    /// Two similarity lists of the same candidates as one: each min–max scaled to 0...1, then
    /// `(1 − secondWeight) × first + secondWeight × second` (how the skill descriptions' and the example
    /// requests' similarities make one semantic score; decision 0045).
    public static func blend(_ first: [Double], _ second: [Double], secondWeight: Double) -> [Double] {
        let a = minMax(first), b = minMax(second)
        return a.indices.map { (1 - secondWeight) * a[$0] + secondWeight * (($0 < b.count) ? b[$0] : 0) }
    }

    /// `values` scaled to 0...1 over the finite ones (all 0 when they are equal); a NaN or infinite value
    /// is 0, the lowest (a NaN compares false with everything: left in, it would hide every other value).
    static func minMax(_ values: [Double]) -> [Double] {
        var lo = Double.infinity, hi = -Double.infinity
        for v in values where v.isFinite {
            lo = min(lo, v)
            hi = max(hi, v)
        }
        let span = hi - lo
        return values.map { $0.isFinite && span > 0 ? ($0 - lo) / span : 0 }
    }
}
