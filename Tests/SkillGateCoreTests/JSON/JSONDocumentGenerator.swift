import SkillGateTestSupport

/// Random JSON documents from a fixed seed, so a failing one is reproduced by its seed and index.
///
/// Valid documents have random nesting (below `maxNesting`), unique keys (a prefix numbers them,
/// so no two collide even under Unicode canonical equivalence), strings with every escape, raw
/// non-ASCII and surrogate pairs, and numbers of every shape RFC 8259 allows, kept within the
/// range of a `Double` (Foundation rejects the others; see `knownDisagreements`). Invalid ones
/// are valid documents cut short, or with one leaf (a key or a scalar value) replaced by a bad
/// one from `badNumbers`, `badStrings` or `badLiterals`.
struct JSONDocumentGenerator {
    private var random: SeededUnitRandom
    private let maxNesting: Int

    init(seed: UInt64, maxNesting: Int = 6) {
        random = SeededUnitRandom(seed: seed)
        self.maxNesting = maxNesting
    }

    /// Numbers RFC 8259 rejects.
    static let badNumbers = [
        "1-+e", "01", "1.", ".5", "-", "1e", "+1", "1e+", "-01", "00", "1.e5", "--1", "1E", "-.5", "0x1F", "1..2", "NaN",
        "Infinity", "-Infinity", "1e-", "2.5E+-1",
    ]

    /// Strings RFC 8259 (or UTF-8) rejects, as the bytes between and including the quotes.
    static let badStrings: [[UInt8]] = [
        #""\x""#, #""\'""#, #""\u12""#, #""\uGHIJ""#, #""\u00e""#, #""\ud800""#, #""\udc00""#, #""a\ud800\u0041""#,
        #""\ud800x""#, #""\udbff\udbff""#, #""\"#, #""abc"#, #""\ud83d\ude0""#,
    ].map { Array($0.utf8) } + [
        [0x22, 0x61, 0x01, 0x62, 0x22],              // raw control character
        [0x22, 0x09, 0x22],                          // raw tab
        [0x22, 0x61, 0x0A, 0x22],                    // raw line feed
        [0x22, 0x1F, 0x22],                          // raw unit separator
        [0x22, 0x5C, 0x6E, 0x01, 0x22],              // raw control character after an escape
        [0x22, 0xC3, 0x28, 0x22],                    // invalid UTF-8
        [0x22, 0xC0, 0xAF, 0x22],                    // overlong encoding
        [0x22, 0xED, 0xA0, 0x80, 0x22],              // a surrogate encoded in UTF-8
        [0x22, 0x80, 0x22],                          // lone continuation byte
        [0x22, 0xE4, 0xB8, 0x22],                    // truncated three-byte character
        [0x22, 0x5C, 0x74, 0xF0, 0x9F, 0x98, 0x22],  // truncated four-byte character after an escape
    ]

    /// Misspelt literals.
    static let badLiterals = ["tru", "nul", "True", "NULL", "fals", "nulll", "t", "undefined"]

    /// A valid document, and where its leaves are (for `poisoned`).
    struct Document {
        var bytes: [UInt8] = []
        /// Byte ranges of the scalar values and of the keys (keys: `isKey`).
        var leaves: [(range: Range<Int>, isKey: Bool)] = []
    }

    mutating func int(_ bound: Int) -> Int { Int(random.next() * Double(bound)) }
    private mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
    private mutating func chance(_ p: Double) -> Bool { random.next() < p }

    /// A valid document: a container most of the time, a bare scalar sometimes.
    mutating func document() -> Document {
        var doc = Document()
        whitespace(&doc)
        value(&doc, depth: chance(0.1) ? maxNesting : 0)
        whitespace(&doc)
        return doc
    }

    /// A valid document cut at a random byte (possibly still valid: a number's prefix, say).
    mutating func truncated() -> [UInt8] {
        let doc = document()
        return Array(doc.bytes.prefix(int(doc.bytes.count)))
    }

    /// A valid document with one leaf replaced by a bad number, string or literal (keys only by
    /// bad strings).
    mutating func poisoned() -> [UInt8] {
        var doc = document()
        while doc.leaves.isEmpty { doc = document() }
        let leaf = pick(doc.leaves)
        let bad: [UInt8]
        switch leaf.isKey ? 1 : int(3) {
        case 0: bad = Array(pick(Self.badNumbers).utf8)
        case 1: bad = pick(Self.badStrings)
        default: bad = Array(pick(Self.badLiterals).utf8)
        }
        doc.bytes.replaceSubrange(leaf.range, with: bad)
        return doc.bytes
    }

    private mutating func value(_ doc: inout Document, depth: Int) {
        let containers = depth < maxNesting ? 2 : 0
        switch int(5 + containers * 3) {
        case 0, 1: leaf(&doc, number())
        case 2, 3: leaf(&doc, string())
        case 4: leaf(&doc, Array(pick(["true", "false", "null"]).utf8))
        case 5, 6, 7: object(&doc, depth: depth + 1)
        default: array(&doc, depth: depth + 1)
        }
    }

    private mutating func leaf(_ doc: inout Document, _ bytes: [UInt8], isKey: Bool = false) {
        let start = doc.bytes.count
        doc.bytes += bytes
        doc.leaves.append((start..<doc.bytes.count, isKey))
    }

    private mutating func object(_ doc: inout Document, depth: Int) {
        container(&doc, open: "{", close: "}") { (g, doc, i) in
            g.leaf(&doc, g.string(prefix: "k\(i)_"), isKey: true)
            g.whitespace(&doc)
            doc.bytes.append(UInt8(ascii: ":"))
            g.whitespace(&doc)
            g.value(&doc, depth: depth)
        }
    }

    private mutating func array(_ doc: inout Document, depth: Int) {
        container(&doc, open: "[", close: "]") { (g, doc, _) in g.value(&doc, depth: depth) }
    }

    /// Up to four items between `open` and `close`, separated by commas, with random whitespace.
    private mutating func container(_ doc: inout Document, open: Unicode.Scalar, close: Unicode.Scalar,
                                    _ item: (inout Self, inout Document, Int) -> Void) {
        doc.bytes.append(UInt8(ascii: open))
        let count = int(5)
        for i in 0..<count {
            if i > 0 { doc.bytes.append(UInt8(ascii: ",")) }
            whitespace(&doc)
            item(&self, &doc, i)
            whitespace(&doc)
        }
        if count == 0 { whitespace(&doc) }
        doc.bytes.append(UInt8(ascii: close))
    }

    private mutating func whitespace(_ doc: inout Document) {
        guard chance(0.3) else { return }
        for _ in 0..<(1 + int(3)) { doc.bytes.append(pick([0x20, 0x0A, 0x0D, 0x09])) }
    }

    private mutating func digits(_ count: Int, leadingNonZero: Bool) -> String {
        (0..<count).map { i in String(i == 0 && leadingNonZero ? 1 + int(9) : int(10)) }.joined()
    }

    /// A number of any RFC 8259 shape whose value a `Double` can hold: zero and minus zero, short
    /// and long integers (past 2^53 and past 2^64 too), fractions, exponents with `e` or `E` and
    /// with or without a sign.
    mutating func number() -> [UInt8] {
        var text = chance(0.3) ? "-" : ""
        let integerDigits: Int
        switch int(4) {
        case 0: text += "0"; integerDigits = 1
        case 1: integerDigits = 1 + int(3); text += digits(integerDigits, leadingNonZero: true)
        case 2: integerDigits = 15 + int(6); text += digits(integerDigits, leadingNonZero: true)  // around 2^53 and 2^64
        default: integerDigits = 21 + int(10); text += digits(integerDigits, leadingNonZero: true)  // past 2^64
        }
        if chance(0.4) { text += "." + digits(1 + int(20), leadingNonZero: false) }
        if chance(0.3) {
            text += pick(["e", "E"]) + pick(["", "+", "-"])
            text += String(int(300 - integerDigits))
        }
        return Array(text.utf8)
    }

    /// A string literal (quotes included) mixing plain ASCII, every escape, `\u` escapes of BMP
    /// characters and of surrogate pairs, and raw non-ASCII characters.
    mutating func string(prefix: String = "") -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")] + Array(prefix.utf8)
        let pieces: [String] = [
            "a", "Zq", "hello world", "0123456789", #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#,
            #"\u00e9"#, #"\u00E9"#, #"\u4e2d"#, #"\u0000"#, #"\u001f"#, #"\u007F"#, #"\ud83d\ude00"#, #"\uD834\uDD1E"#,
            #"\uffff"#, "é", "中文", "😀", "e\u{301}", "\u{7F}", "ß", "\u{10FFFF}",
        ]
        for _ in 0..<int(8) { out += Array(pick(pieces).utf8) }
        if chance(0.1) { out += Array(String(repeating: "long text ", count: 10 + int(30)).utf8) }
        out.append(UInt8(ascii: "\""))
        return out
    }
}
