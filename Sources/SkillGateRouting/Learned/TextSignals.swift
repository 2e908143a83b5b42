/// What one pass over a text's UTF-8 bytes yields for the learned router: hashed word and
/// character n-grams, demand phrase counts, and counts that say how much the text asks for
/// (questions, list items, lines of tabular data, numbers).
///
/// English: lowercase ASCII words, unigrams and bigrams (digit runs are one `#` token). Chinese,
/// Japanese and Korean: character unigrams and bigrams. Hashes are FNV-1a, mixed with a seed so
/// the task and earlier turns land in different buckets.
struct TextSignals {
    /// N-gram hashes (with repetitions; `LearnedRouter` keeps distinct ones).
    var grams: [UInt64] = []
    /// Demand phrase occurrences per `DemandCategory`.
    var demand = [Int](repeating: 0, count: DemandCategory.allCases.count)
    var questionMarks = 0
    /// Lines that start like a list item: `1.`, `2)`, `- `, `* `, `•`, `①`, `（1）`.
    var listItems = 0
    var lines = 0
    /// Lines with two or more of `,` `|` tab `;` (CSV, tables, logs).
    var dataLines = 0
    /// Runs of digits.
    var numbers = 0
    var words = 0
    var cjkCharacters = 0
    /// `、`, the Chinese enumeration comma ("A、B、C").
    var enumerationCommas = 0
    var bytes = 0

    let seed: UInt64
    /// Whether `spans` is filled (for explanations only; the request path leaves it off).
    let keepSpans: Bool
    /// The byte range of each n-gram of `grams`, when `keepSpans`.
    var spans: [Range<Int>] = []

    init(seed: UInt64, keepSpans: Bool = false) {
        self.seed = seed
        self.keepSpans = keepSpans
        grams.reserveCapacity(64)
    }

    static let numberToken: UInt64 = (MarkerTable.fnvOffset ^ 0x23) &* MarkerTable.fnvPrime

    @inline(__always)
    private mutating func emit(_ h: UInt64, _ from: Int, _ to: Int) {
        grams.append((h ^ seed) &* 0x9E3779B97F4A7C15)
        if keepSpans { spans.append(from..<to) }
    }

    mutating func scan(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ scan($0) }) != nil { return }
        let copy = Array(text.utf8)
        copy.withUnsafeBufferPointer { scan($0) }
    }

    /// The byte loop. State lives in locals so it stays in registers.
    mutating func scan(_ buf: UnsafeBufferPointer<UInt8>) {
        let table = DemandTable.shared
        let n = buf.count
        bytes += n
        var h: UInt64 = 0, inWord = false, inNumber = false
        var prev1: UInt64 = 0, prev2: UInt64 = 0
        var wordStart = 0, prevStart = 0
        var lastCJK: UInt32 = 0, lastCJKStart = 0
        var lineStart = true, lineDelimiters = 0, lineLength = 0
        var i = 0
        if n > 0 { lines = 1 }
        while true {
            let b: UInt8 = i < n ? buf[i] : 0x0A
            let lower = b | 0x20
            let isLetter = b < 0x80 && lower >= 0x61 && lower <= 0x7A
            let isDigit = b >= 0x30 && b <= 0x39
            if isLetter {
                if inNumber { inNumber = false; wordEnded(table, Self.numberToken, &prev1, &prev2, &prevStart, wordStart, i, counts: false) }
                if !inWord { inWord = true; h = MarkerTable.fnvOffset; wordStart = i }
                h = (h ^ UInt64(lower)) &* MarkerTable.fnvPrime
                lastCJK = 0
                lineStart = false
                lineLength += 1
                i += 1
                continue
            }
            if inWord {
                inWord = false
                words += 1
                wordEnded(table, h, &prev1, &prev2, &prevStart, wordStart, i, counts: true)
            }
            if isDigit {
                if !inNumber {
                    inNumber = true
                    wordStart = i
                    numbers += 1
                    // `1.` / `2)` / `3、` at the start of a line is a list item.
                    if lineStart {
                        var j = i + 1
                        while j < n && buf[j] >= 0x30 && buf[j] <= 0x39 { j += 1 }
                        if j < n && (buf[j] == 0x2E || buf[j] == 0x29 || buf[j] == 0x3A) { listItems += 1 }
                        else if j + 2 < n && buf[j] == 0xE3 && buf[j + 1] == 0x80 && buf[j + 2] == 0x81 { listItems += 1 }
                    }
                }
                lastCJK = 0
                lineStart = false
                lineLength += 1
                i += 1
                continue
            }
            if inNumber { inNumber = false; wordEnded(table, Self.numberToken, &prev1, &prev2, &prevStart, wordStart, i, counts: false) }
            if i >= n { endLine(lineDelimiters, lineLength); break }
            if b < 0x80 {
                switch b {
                case 0x0A:
                    endLine(lineDelimiters, lineLength)
                    lines += 1
                    lineStart = true; lineDelimiters = 0; lineLength = 0
                    prev1 = 0; prev2 = 0
                case 0x20, 0x09, 0x0D:
                    if b == 0x09 { lineDelimiters += 1 }
                case 0x3F:
                    questionMarks += 1
                    prev1 = 0; prev2 = 0
                    lineStart = false
                case 0x2D, 0x2A:  // `- ` / `* ` opening a line
                    if lineStart && i + 1 < n && buf[i + 1] == 0x20 { listItems += 1 }
                    lineStart = false
                default:
                    if b == 0x2C || b == 0x7C || b == 0x3B { lineDelimiters += 1 }
                    if b == 0x2E || b == 0x21 || b == 0x3B || b == 0x3A { prev1 = 0; prev2 = 0 }
                    lineStart = false
                }
                if b != 0x20 && b != 0x0A { lineLength += 1 }
                lastCJK = 0
                i += 1
                continue
            }
            let length = b >= 0xF0 ? 4 : (b >= 0xE0 ? 3 : (b >= 0xC0 ? 2 : 1))
            var scalar: UInt32 = 0
            if length > 1 && i + length <= n {
                scalar = UInt32(b) & (length == 2 ? 0x1F : (length == 3 ? 0x0F : 0x07))
                for k in 1..<length { scalar = scalar << 6 | (UInt32(buf[i + k]) & 0x3F) }
            }
            lineLength += 1
            if Self.isCJK(scalar) {
                cjkCharacters += 1
                let one = MarkerTable.fnvOffset ^ (UInt64(scalar) &* 0x100000001b3)
                emit(one, i, i + length)
                if lastCJK != 0 {
                    let key = DemandTable.bigramKey(lastCJK, scalar)
                    emit(key, lastCJKStart, i + length)
                    if let g = table.cjkGroups.value(key) { cjkPhrase(table, Int(g), buf, i + length) }
                }
                lastCJK = scalar
                lastCJKStart = i
                lineStart = false
            } else {
                switch scalar {
                case 0xFF1F: questionMarks += 1                    // ？
                case 0xFF0C, 0xFF5C, 0xFF1B: lineDelimiters += 1     // ， ｜ ；
                case 0x2460...0x2473, 0x2022:                        // ① … ⑳, •
                    if lineStart { listItems += 1 }
                case 0xFF08:                                         // （1）
                    if lineStart && i + 3 < n && buf[i + 3] >= 0x30 && buf[i + 3] <= 0x39 { listItems += 1 }
                default: break
                }
                if scalar == 0x3001 { enumerationCommas += 1 }      // 、
                lastCJK = 0
                if scalar != 0x3000 { lineStart = false }
            }
            i += length
        }
    }

    @inline(__always)
    private mutating func endLine(_ delimiters: Int, _ length: Int) {
        if delimiters >= 2 && length >= 5 { dataLines += 1 }
    }

    /// A word (or a number token) ended: emit its unigram and bigram, and count demand phrases
    /// of one to three words ending here.
    @inline(__always)
    private mutating func wordEnded(_ table: DemandTable, _ h: UInt64, _ prev1: inout UInt64, _ prev2: inout UInt64,
                                    _ prevStart: inout Int, _ start: Int, _ end: Int, counts: Bool) {
        emit(h, start, end)
        if prev1 != 0 {
            let two = MarkerTable.phraseKey(prev1, h)
            emit(two, prevStart, end)
            if counts, let c = table.english.value(two) { demand[Int(c)] += 1 }
            if counts, prev2 != 0, let c = table.english.value(MarkerTable.phraseKey(MarkerTable.phraseKey(prev2, prev1), h)) { demand[Int(c)] += 1 }
        }
        if counts, let c = table.english.value(h) { demand[Int(c)] += 1 }
        prev2 = prev1
        prev1 = h
        prevStart = start
    }

    /// Compares the phrases that start with the bigram just read against the bytes that follow.
    private mutating func cjkPhrase(_ table: DemandTable, _ g: Int, _ buf: UnsafeBufferPointer<UInt8>, _ next: Int) {
        for c in table.cjkStart[g]..<table.cjkStart[g + 1] {
            let rest = table.cjkRest[c]
            guard next + rest.count <= buf.count else { continue }
            var same = true
            for k in 0..<rest.count where buf[next + k] != rest[k] { same = false; break }
            if same { demand[table.cjkCategory[c]] += 1 }
        }
    }

    /// Han (CJK unified ideographs, extension A, compatibility), kana, Hangul syllables.
    @inline(__always)
    static func isCJK(_ v: UInt32) -> Bool {
        (v >= 0x4E00 && v <= 0x9FFF) || (v >= 0x3400 && v <= 0x4DBF) || (v >= 0xF900 && v <= 0xFAFF)
            || (v >= 0x3040 && v <= 0x30FF) || (v >= 0xAC00 && v <= 0xD7AF)
    }
}
