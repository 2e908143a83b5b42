/// A bilingual thesaurus for skill ranking: groups of English and Chinese words of one meaning in
/// the vocabulary of app tools ("remind, alarm, notify, 提醒, 闹钟"). Every word of a group adds the
/// group's concept term wherever it occurs, in tool documents and in queries alike, so "wake me up
/// at 7" meets a tool described as "set an alarm", and "提醒我" meets "Create a reminder".
///
/// The groups (`ConceptLexicon+Groups.swift`) were written from general knowledge, without the
/// evaluation corpus; docs/decisions/0018-learned-router-and-skill-ranking-quality.md says why a
/// thesaurus and how it is kept honest.
enum ConceptLexicon {
    /// Word key (`SkillDocument.key` of the stemmed English word or of the Chinese word) → group ids.
    static let table: [Int: [Int32]] = build(groups)
    /// The concept term of each group, by id.
    static let conceptKeys: [Int] = (0..<groupCount).map(conceptKey)

    /// How many groups the lexicon has.
    static var groupCount: Int { groups.split(separator: "\n").count }

    /// The concept term of group `id` as text: `\u{1}c<id>` (no word can start with a control byte).
    static func conceptTerm(_ id: Int) -> String { "\u{1}c" + String(id) }

    /// The key of `conceptTerm(id)`.
    static func conceptKey(_ id: Int) -> Int { SkillDocument.key(conceptTerm(id)) }

    static func build(_ text: String) -> [Int: [Int32]] {
        var table: [Int: [Int32]] = [:]
        for (id, line) in text.split(separator: "\n").enumerated() {
            let concept = Int32(id)
            for term in line.split(separator: " ") {
                var scanner = TermScanner(keepStrings: false, expandConcepts: false)
                scanner.scan(String(term))
                // An English word gives its stem's key; a Chinese word its characters and
                // bigrams, of which the whole word is wanted: key it directly.
                let keys: [Int]
                if term.utf8.allSatisfy({ $0 < 0x80 }) {
                    keys = scanner.keys
                } else {
                    var t = String(term)
                    keys = [t.withUTF8 { SkillDocument.key($0) }]
                }
                for key in keys where !(table[key]?.contains(concept) ?? false) { table[key, default: []].append(concept) }
            }
        }
        return table
    }
}
