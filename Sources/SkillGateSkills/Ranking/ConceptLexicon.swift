/// A bilingual thesaurus for skill ranking: groups of English and Chinese words of one meaning in
/// the vocabulary of app tools ("remind, alarm, notify, 提醒, 闹钟"). Every word of a group adds the
/// group's concept term wherever it occurs, in tool documents and in queries alike, so "wake me up
/// at 7" meets a tool described as "set an alarm", and "提醒我" meets "Create a reminder".
///
/// Broader links (`ConceptLexicon+Broader.swift`) add a general topic to specific words, as a
/// thesaurus's "broader term" does: "rain", "snow" and "下雪" also count as *weather*, so "will it
/// rain this weekend" meets a tool described as "Get the weather forecast". Colloquial words
/// (`ConceptLexicon+Colloquial.swift`: "tunes", "tmrw", "打个车"), in the same format, count as the
/// group they stand for.
///
/// The groups (`ConceptLexicon+Groups.swift`), the links and the colloquial words were written from general knowledge,
/// without the evaluation corpus; docs/decisions/0018-learned-router-and-skill-ranking-quality.md
/// says why a thesaurus and how it is kept honest.
enum ConceptLexicon {
    /// Word key (`SkillDocument.key` of the stemmed English word or of the Chinese word) → group ids.
    static let table: [Int: [Int32]] = build(groups, broader: broader + "\n" + colloquial)
    /// The concept term of each group, by id.
    static let conceptKeys: [Int] = (0..<groupCount).map(conceptKey)

    /// How many groups the lexicon has.
    static var groupCount: Int { groups.split(separator: "\n").count }

    /// The concept term of group `id` as text: `\u{1}c<id>` (no word can start with a control byte).
    static func conceptTerm(_ id: Int) -> String { "\u{1}c" + String(id) }

    /// The key of `conceptTerm(id)`.
    static func conceptKey(_ id: Int) -> Int { SkillDocument.key(conceptTerm(id)) }

    /// The word table of `text` (one group a line), with the `broader` links applied: for each line
    /// `TOPIC: word word …`, every word listed — with its whole group if it is in one — also adds
    /// the concept of the group(s) that contain `TOPIC`. A link whose topic is in no group is ignored.
    static func build(_ text: String, broader: String = "") -> [Int: [Int32]] {
        var table: [Int: [Int32]] = [:]
        func add(_ concept: Int32, to key: Int) {
            if !(table[key]?.contains(concept) ?? false) { table[key, default: []].append(concept) }
        }
        var groupKeys: [[Int]] = []
        for (id, line) in text.split(separator: "\n").enumerated() {
            let concept = Int32(id)
            var keysOfGroup: [Int] = []
            for term in line.split(separator: " ") {
                for key in keys(of: term) {
                    keysOfGroup.append(key)
                    add(concept, to: key)
                }
            }
            groupKeys.append(keysOfGroup)
        }
        let ownConcepts = table
        for line in broader.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let topics = keys(of: line[..<colon]).flatMap { ownConcepts[$0] ?? [] }
            guard !topics.isEmpty else { continue }
            for word in line[line.index(after: colon)...].split(separator: " ") {
                for key in keys(of: word) {
                    let linked = ownConcepts[key].map { $0.flatMap { groupKeys[Int($0)] } } ?? [key]
                    for k in linked { for topic in topics { add(topic, to: k) } }
                }
            }
        }
        return table
    }

    /// The keys a lexicon word stands for: an English word (or two-word phrase) its stems' keys; a
    /// Chinese word the key of the whole word (the tokenizer's characters and bigrams are not wanted).
    private static func keys(of term: Substring) -> [Int] {
        guard !term.isEmpty else { return [] }
        if term.utf8.allSatisfy({ $0 < 0x80 }) {
            var scanner = TermScanner(keepStrings: false, expandConcepts: false)
            scanner.scan(String(term))
            return scanner.keys
        }
        var t = String(term)
        return [t.withUTF8 { SkillDocument.key($0) }]
    }
}
