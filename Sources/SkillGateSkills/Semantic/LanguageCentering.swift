import Synchronization

/// Takes the language out of multilingual embeddings before they are compared.
///
/// Multilingual models (e5 among them) place texts of one language near each other whatever they
/// say, so a Chinese request scores every Chinese tool above the English tool it asks for. The
/// fix is to compare offsets from each language's centre instead of raw vectors: a document
/// vector minus the mean of the candidate documents in its script, a query vector minus the
/// running mean of the queries seen in its script (until enough were seen, the documents' mean of
/// that script stands in). On the corpus's dev split this moved Chinese-to-English recall@5 of the
/// embeddings alone from 19% to 89% (docs/decisions/0017-semantic-skill-ranking.md).
///
/// Scripts: Han/kana/Hangul (`cjk`) or anything else (`other`), by the share of CJK characters.
public final class LanguageCentering: Sendable {
    public enum Script: Int, Sendable, CaseIterable {
        case cjk = 0
        case other = 1
    }

    /// Queries of a script needed before their own running mean is used.
    public let minimumQueries: Int
    /// Running sums and counts of query vectors per script.
    private let queries = Mutex<[(sum: [Double], count: Int)]>(Array(repeating: ([], 0), count: Script.allCases.count))

    public init(minimumQueries: Int = 20) {
        self.minimumQueries = minimumQueries
    }

    /// The script of `text`: `cjk` when at least 15% of its letters are CJK characters.
    public static func script(of text: String) -> Script {
        var cjk = 0, letters = 0
        for s in text.unicodeScalars {
            let v = s.value
            if v < 0x80 {
                // ASCII without Unicode's property tables (this runs over every example request of every ranked cut).
                if (v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A { letters += 1 }
            } else if (v >= 0x4E00 && v <= 0x9FFF) || (v >= 0x3400 && v <= 0x4DBF) || (v >= 0x3040 && v <= 0x30FF) || (v >= 0xAC00 && v <= 0xD7AF) {
                cjk += 1; letters += 1
            } else if s.properties.isAlphabetic {
                letters += 1
            }
        }
        return letters > 0 && cjk * 100 >= letters * 15 ? .cjk : .other
    }

    /// The centred query and documents. Records the query's direction (its unit vector) in its script's
    /// running mean; a query without one (a value or its length not finite, or zero: `UnitVector`) is
    /// returned uncentred and not recorded, so one broken answer never shifts every later query's centre
    /// (decision 0102). The scorer hands unit vectors already; this holds whoever calls.
    public func center(query raw: [Float], queryText: String, documents: [[Float]], documentTexts: [String]) -> (query: [Float], documents: [[Float]]) {
        guard documents.count >= 3, let dims = documents.first?.count, raw.count == dims, let query = UnitVector.unit(raw) else {
            return (raw, documents)
        }
        let scripts = documentTexts.map(Self.script(of:))
        let all = Self.mean(documents)
        var documentMean: [Script: [Double]] = [:]
        for script in Script.allCases {
            let group = documents.indices.filter { scripts[$0] == script }.map { documents[$0] }
            documentMean[script] = group.count >= 3 ? Self.mean(group) : all
        }
        let centred = documents.indices.map { Self.subtract(documents[$0], documentMean[scripts[$0]]!) }
        let script = Self.script(of: queryText)
        let queryMean: [Double]? = queries.locked { state in
            var entry = state[script.rawValue]
            if entry.sum.count != dims { entry = ([Double](repeating: 0, count: dims), 0) }
            for i in 0..<dims { entry.sum[i] += Double(query[i]) }
            entry.count += 1
            state[script.rawValue] = entry
            return entry.count >= minimumQueries ? entry.sum.map { $0 / Double(entry.count) } : nil
        }
        return (Self.subtract(query, queryMean ?? documentMean[script]!), centred)
    }

    /// How many queries of `script` were seen.
    public func queriesSeen(_ script: Script) -> Int { queries.locked { $0[script.rawValue].count } }

    static func mean(_ vectors: [[Float]]) -> [Double] {
        var sum = [Double](repeating: 0, count: vectors.first?.count ?? 0)
        for v in vectors { for i in sum.indices { sum[i] += Double(v[i]) } }
        return sum.map { $0 / Double(max(1, vectors.count)) }
    }

    static func subtract(_ v: [Float], _ m: [Double]) -> [Float] {
        (0..<v.count).map { Float(Double(v[$0]) - m[$0]) }
    }
}
