/// How near a request is to each skill's example requests (`skill_ranking.examples`, decision 0045).
///
/// A skill's score is the mean cosine between the request's vector and the vectors of its example
/// requests, after each language's centre is taken out: every example vector minus the mean of
/// the examples in its script, the request's vector minus the mean of the examples in the
/// request's script. Every skill has examples in both languages, so the centring compares what
/// the texts say rather than which language they are in. Both sides are embedded as queries:
/// request against request is the comparison embedding models are best at.
public enum ExampleSimilarity {
    /// Fewer examples than this in one script: their mean is too rough a centre, so the mean of all
    /// examples stands in.
    static let minimumPerScript = 3

    /// One score per skill: `examples[i]` are skill `i`'s example vectors with their texts (for the
    /// script). A skill without examples gets the lowest score of the others.
    public static func scores(query: [Float], queryText: String, examples: [[(vector: [Float], text: String)]]) -> [Double] {
        let flat = examples.flatMap { $0 }
        guard let dims = flat.first?.vector.count, query.count == dims else { return examples.map { _ in 0 } }
        let scripts = flat.map { LanguageCentering.script(of: $0.text) }
        let all = LanguageCentering.mean(flat.map(\.vector))
        var centre: [LanguageCentering.Script: [Double]] = [:]
        for script in LanguageCentering.Script.allCases {
            let group = flat.indices.filter { scripts[$0] == script }.map { flat[$0].vector }
            centre[script] = group.count >= minimumPerScript ? LanguageCentering.mean(group) : all
        }
        let q = LanguageCentering.subtract(query, centre[LanguageCentering.script(of: queryText)]!)
        var scores: [Double?] = []
        var next = 0
        for skill in examples {
            guard !skill.isEmpty else { scores.append(nil); continue }
            var sum = 0.0
            for example in skill {
                sum += VectorMath.cosines(q, [LanguageCentering.subtract(example.vector, centre[scripts[next]]!)])[0]
                next += 1
            }
            scores.append(sum / Double(skill.count))
        }
        let floor = scores.compactMap { $0 }.min() ?? 0
        return scores.map { $0 ?? floor }
    }
}
