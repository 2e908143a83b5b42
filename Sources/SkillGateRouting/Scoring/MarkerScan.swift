/// What one pass over a text found: marker strength per category, which markers, code fences.
public struct MarkerScan: Sendable, Hashable {
    /// Summed strength of the markers found, per `MarkerCategory` (uncapped).
    public var strengths: (reasoning: Double, math: Double, code: Double, planning: Double) = (0, 0, 0, 0)
    /// The markers found (indices into `MarkerLexicon.markers`).
    public var matched = MarkerSet()
    /// Lines of three or more backticks (opening and closing fences of code blocks).
    public var codeFences = 0

    public init() {}

    /// Fenced code blocks (an unclosed fence counts as one).
    public var codeBlocks: Int { (codeFences + 1) / 2 }

    /// The summed strength of `category`.
    public func strength(_ category: MarkerCategory) -> Double {
        switch category {
        case .reasoning: strengths.reasoning
        case .math: strengths.math
        case .code: strengths.code
        case .planning: strengths.planning
        }
    }

    mutating func add(_ category: Int, _ value: Double) {
        switch category {
        case 0: strengths.reasoning += value
        case 1: strengths.math += value
        case 2: strengths.code += value
        default: strengths.planning += value
        }
    }

    /// The texts of the markers found in `category`, in lexicon order.
    public func markers(in category: MarkerCategory) -> [String] {
        matched.indices.filter { MarkerLexicon.markers[$0].category == category }.map { MarkerLexicon.markers[$0].text }
    }

    /// Scans `text` once (see `Marker` for the matching rules) and adds what it finds.
    public mutating func scan(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ scan($0) }) != nil { return }
        let copy = Array(text.utf8)
        copy.withUnsafeBufferPointer { scan($0) }
    }

    public static func == (a: MarkerScan, b: MarkerScan) -> Bool {
        a.strengths == b.strengths && a.matched == b.matched && a.codeFences == b.codeFences
    }

    public func hash(into h: inout Hasher) {
        h.combine(strengths.reasoning); h.combine(strengths.math); h.combine(strengths.code); h.combine(strengths.planning)
        h.combine(matched); h.combine(codeFences)
    }
}

extension MarkerScan {
    /// The byte loop: ASCII letters build a lowercase FNV-1a word hash; any other byte ends the
    /// word, which is looked up (and, when it can end a phrase, the phrase of the last 2 or 3
    /// words); non-ASCII scalars are checked against the symbol filter and then the candidates.
    /// State lives in locals (no closures capture it), so it stays in registers.
    mutating func scan(_ buf: UnsafeBufferPointer<UInt8>) {
        let table = MarkerTable.shared
        let n = buf.count
        var h: UInt64 = 0, inWord = false
        var prev1: UInt64 = 0, prev2: UInt64 = 0
        var backticks = 0
        var i = 0
        while true {
            let b: UInt8 = i < n ? buf[i] : 0x20
            if b != 0x60 && backticks > 0 {
                if backticks >= 3 { codeFences += 1 }
                backticks = 0
            }
            let lower = b | 0x20
            if b < 0x80 && lower >= 0x61 && lower <= 0x7A {
                if !inWord {
                    inWord = true
                    h = MarkerTable.fnvOffset
                    if i > 0 && buf[i - 1] == 0x5C { h = (h ^ 0x5C) &* MarkerTable.fnvPrime }
                }
                h = (h ^ UInt64(lower)) &* MarkerTable.fnvPrime
                i += 1
                continue
            }
            if inWord {
                inWord = false
                if let e = table.words.value(h) { wordEnded(table, e, h, prev1, prev2) }
                prev2 = prev1
                prev1 = h
            }
            if i >= n { break }
            if b < 0x80 {
                if b == 0x60 { backticks += 1 }
                i += 1
                continue
            }
            // A non-ASCII scalar: decode it, filter, then compare the candidates' bytes.
            let length = b >= 0xF0 ? 4 : (b >= 0xE0 ? 3 : (b >= 0xC0 ? 2 : 1))
            if length > 1 && i + length <= n {
                var scalar = UInt32(b) & (length == 2 ? 0x1F : (length == 3 ? 0x0F : 0x07))
                for k in 1..<length { scalar = scalar << 6 | (UInt32(buf[i + k]) & 0x3F) }
                if table.symbolFilter[Int(scalar & 1023) >> 6] & (1 << UInt64(scalar & 63)) != 0 {
                    symbolAt(table, buf, i, length, scalar)
                }
            }
            i += length
        }
    }

    /// A word that is in the table ended: count it, and the phrase it may end.
    private mutating func wordEnded(_ table: MarkerTable, _ e: Int32, _ h: UInt64, _ prev1: UInt64, _ prev2: UInt64) {
        let marker = Int(e & 0xFFFF)
        if marker != Int(MarkerTable.noMarker) { hit(table, marker) }
        guard e & MarkerTable.tailFlag != 0 else { return }
        if prev1 != 0, let p = table.phrases.value(MarkerTable.phraseKey(prev1, h)) { hit(table, Int(p)) }
        if prev2 != 0, let p = table.phrases.value(MarkerTable.phraseKey(MarkerTable.phraseKey(prev2, prev1), h)) { hit(table, Int(p)) }
    }

    /// Compares the markers that start with `scalar` against the bytes at `i`.
    private mutating func symbolAt(_ table: MarkerTable, _ buf: UnsafeBufferPointer<UInt8>, _ i: Int, _ length: Int, _ scalar: UInt32) {
        guard let g = table.symbols.value(UInt64(scalar)) else { return }
        for c in table.symbolStart[Int(g)]..<table.symbolStart[Int(g) + 1] {
            let pattern = table.symbolBytes[c]
            guard i + pattern.count <= buf.count else { continue }
            var same = true
            for k in length..<pattern.count where buf[i + k] != pattern[k] { same = false; break }
            if same { hit(table, table.symbolMarker[c]) }
        }
    }

    private mutating func hit(_ table: MarkerTable, _ index: Int) {
        matched.insert(index)
        add(table.category[index], table.strength[index])
    }
}
