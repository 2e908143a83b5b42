import Testing
import SkillGateSkills

@Suite struct WordVectorTableTests {
    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).map(*).reduce(0, +)
    }

    @Test func theBuiltInTableLoadsWithItsWordsAndUnitVectors() throws {
        let table = try #require(WordVectorTable.builtIn, "the table assembled into the binary must load")
        #expect(table.wordsAreInOrder, "the built-in table's order is checked here, not at start")
        #expect(table.count > 100_000)
        #expect(table.dimensions == 256)
        for word in ["weather", "reminder", "inbox", "friday", "天", "天气", "提醒", "闹钟"] {
            #expect(table.index(of: word) != nil, "\(word) is in the table")
        }
        for word in ["qzxvk", "Weather", "", "weather "] {
            #expect(table.index(of: word) == nil, "\"\(word)\" is not")
        }
        for i in stride(from: 0, to: table.count, by: 997) {
            let v = table.vector(i)
            #expect(abs(Self.cosine(v, v) - 1) < 1e-3, "row \(i) is unit length")
        }
    }

    /// What the table is for: words of one meaning are nearer each other than unrelated words, in
    /// one language and across the two.
    @Test(arguments: [
        ("rain", "weather", "invoice"),
        ("song", "music", "mortgage"),
        ("雨", "weather", "invoice"),
        ("天气", "weather", "password"),
        ("提醒", "reminder", "restaurant"),
        ("taxi", "打车", "邮件"),
    ])
    func relatedWordsAreNearerThanUnrelatedOnes(_ word: String, _ related: String, _ unrelated: String) throws {
        let table = try #require(WordVectorTable.builtIn)
        let v = try table.vector(#require(table.index(of: word)))
        let r = try table.vector(#require(table.index(of: related)))
        let u = try table.vector(#require(table.index(of: unrelated)))
        #expect(Self.cosine(v, r) > Self.cosine(v, u), "\(word): \(Self.cosine(v, r)) to \(related), \(Self.cosine(v, u)) to \(unrelated)")
    }

    @Test func everyWordOfASmallTableIsFoundWithItsVector() throws {
        let entries: [(word: String, vector: [Float])] = [
            ("b", [0, 1, 0, 0]), ("ab", [1, 1, 0, 0]), ("a", [1, 0, 0, 0]), ("abc", [0, 0, 1, 0]),
            ("天气", [0, 0, 0, 1]), ("天", [0, 0, 1, 1]), ("zebra", [-1, 0, 0, 0.5]),
        ]
        let table = try SmallWordVectorTable.table(entries)
        #expect(table.count == entries.count && table.dimensions == 4 && table.wordsAreInOrder)
        for (word, vector) in entries {
            let i = try #require(table.index(of: word), "\(word)")
            let norm = Self.cosine(vector, vector).squareRoot()
            #expect(Self.cosine(table.vector(i), vector.map { $0 / norm }) > 0.99, "\(word)'s vector")
        }
        for missing in ["", "aa", "abcd", "c", "天天", "zebras"] {
            #expect(table.index(of: missing) == nil, "\(missing)")
        }
    }

    static let good = SmallWordVectorTable.bytes([("a", [1, 0]), ("b", [0, 1])])

    @Test(arguments: [
        ("empty", [], "shorter than its 16-byte header"),
        ("another format", Array("SGWV0001".utf8) + Array(good.dropFirst(8)), "does not start with \"SGWV0002\""),
        ("truncated", Array(good.dropLast()), "2 words of 2 dimensions need"),
        ("trailing bytes", good + [0], "2 words of 2 dimensions need"),
        ("unsorted", SmallWordVectorTable.bytes([("a", [1, 0]), ("b", [0, 1])]).swappingWords(), "not in ascending byte order"),
        ("odd dimensions", SmallWordVectorTable.bytes([("a", [1, 0, 0])]), "1 words of 3 dimensions"),
    ] as [(String, [UInt8], String)])
    func malformedTablesAreRefusedWithTheReason(_ name: String, _ bytes: [UInt8], _ reason: String) {
        #expect {
            _ = try WordVectorTable(bytes: bytes)
        } throws: { error in
            let text = "\(error)"
            return text.contains(reason) && text.contains("scripts/word-vectors/build.sh")
        }
    }
}

extension [UInt8] {
    /// A two-word table of one-byte words with the words' bytes swapped (so they are out of order).
    func swappingWords() -> [UInt8] {
        var b = self
        let blob = 16 + 4 * 3
        b.swapAt(blob, blob + 1)
        return b
    }
}
