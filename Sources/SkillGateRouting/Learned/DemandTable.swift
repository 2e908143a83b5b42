/// `DemandLexicon` compiled for the byte pass of `TextSignals`: English words and phrases keyed by
/// the same hashes `MarkerTable` uses; Chinese phrases keyed by the hash of their first two
/// characters, with the bytes of the rest compared in place.
struct DemandTable: Sendable {
    static let shared = DemandTable(DemandLexicon.entries)

    /// Word or phrase hash → category.
    let english: HashTable
    /// Hash of a phrase's first two CJK scalars → index into `cjkStart`.
    let cjkGroups: HashTable
    /// Phrases per group: `cjkStart[g]..<cjkStart[g + 1]` index `cjkRest`/`cjkCategory`.
    let cjkStart: [Int]
    /// The UTF-8 bytes of each phrase after its first two scalars (often empty).
    let cjkRest: [[UInt8]]
    let cjkCategory: [Int]

    init(_ entries: [(text: String, category: DemandCategory)]) {
        var english = HashTable(capacity: 1024), groups = HashTable(capacity: 512)
        var byGroup: [UInt64: [(rest: [UInt8], category: Int)]] = [:]
        var order: [UInt64] = []
        for (text, category) in entries {
            let bytes = Array(text.utf8)
            if bytes.allSatisfy({ $0 < 0x80 }) {
                let words = MarkerTable.words(of: bytes)
                english.insert(words.count == 1 ? words[0] : MarkerTable.phraseKey(words), Int32(category.rawValue))
            } else {
                let scalars = Array(text.unicodeScalars)
                precondition(scalars.count >= 2, "a Chinese demand phrase needs two characters or more: \(text)")
                let key = Self.bigramKey(scalars[0].value, scalars[1].value)
                let headBytes = String(String.UnicodeScalarView(scalars[0..<2])).utf8.count
                if byGroup[key] == nil { order.append(key) }
                byGroup[key, default: []].append((Array(bytes[headBytes...]), category.rawValue))
            }
        }
        var start: [Int] = [], rest: [[UInt8]] = [], category: [Int] = []
        for (g, key) in order.enumerated() {
            groups.insert(key, Int32(g))
            start.append(rest.count)
            for e in byGroup[key]! { rest.append(e.rest); category.append(e.category) }
        }
        start.append(rest.count)
        self.english = english
        cjkGroups = groups
        cjkStart = start
        cjkRest = rest
        cjkCategory = category
    }

    /// The key of two adjacent scalars.
    @inline(__always)
    static func bigramKey(_ a: UInt32, _ b: UInt32) -> UInt64 {
        MarkerTable.phraseKey(UInt64(a) &* 0x9E3779B97F4A7C15 | 1, UInt64(b))
    }
}
