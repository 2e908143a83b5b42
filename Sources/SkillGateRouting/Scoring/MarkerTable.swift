/// The lexicon compiled for a single pass over UTF-8 bytes: hashed whole words, hashed
/// phrases (checked only when a phrase's last word appears), and non-ASCII markers keyed by
/// their first scalar behind a small bit filter. Built once; read-only afterwards.
struct MarkerTable: Sendable {
    static let shared = MarkerTable(MarkerLexicon.markers)

    static let noMarker: Int32 = 0xFFFF
    static let tailFlag: Int32 = 0x10000

    /// Word hash → marker index (low 16 bits, `noMarker` if none) | `tailFlag` when a phrase ends with the word.
    let words: HashTable
    /// Phrase hash (see `phraseKey`) → marker index.
    let phrases: HashTable
    /// First scalar of a non-ASCII marker → index into `symbolStart`.
    let symbols: HashTable
    /// Bit filter over `scalar & 1023` of the non-ASCII markers' first scalars.
    let symbolFilter: [UInt64]
    /// Candidates per first scalar: `symbolStart[g]..<symbolStart[g + 1]` index `symbolBytes`/`symbolMarker`.
    let symbolStart: [Int]
    let symbolBytes: [[UInt8]]
    let symbolMarker: [Int]
    let category: [Int]
    let strength: [Double]

    init(_ markers: [Marker]) {
        precondition(markers.count < min(MarkerSet.capacity, Int(Self.noMarker)), "too many markers for MarkerSet")
        var words = HashTable(capacity: 1024), phrases = HashTable(capacity: 256), symbols = HashTable(capacity: 256)
        var filter = [UInt64](repeating: 0, count: 16)
        var groups: [UInt32: [Int]] = [:]
        var groupOrder: [UInt32] = []
        for (index, marker) in markers.enumerated() {
            let bytes = Array(marker.text.utf8)
            if bytes.allSatisfy({ $0 < 0x80 }) {
                let parts = Self.words(of: bytes)
                if parts.count == 1 {
                    let old = words.value(parts[0]) ?? Self.noMarker
                    words.insert(parts[0], (old & Self.tailFlag) | Int32(index))
                } else {
                    phrases.insert(Self.phraseKey(parts), Int32(index))
                    let tail = parts[parts.count - 1]
                    words.insert(tail, (words.value(tail) ?? Self.noMarker) | Self.tailFlag)
                }
            } else {
                let first = marker.text.unicodeScalars.first!.value
                filter[Int(first & 1023) >> 6] |= 1 << UInt64(first & 63)
                if groups[first] == nil { groupOrder.append(first) }
                groups[first, default: []].append(index)
            }
        }
        var start: [Int] = [], bytes: [[UInt8]] = [], owner: [Int] = []
        for (g, first) in groupOrder.enumerated() {
            symbols.insert(UInt64(first), Int32(g))
            start.append(bytes.count)
            for index in groups[first]! {
                bytes.append(Array(markers[index].text.utf8))
                owner.append(index)
            }
        }
        start.append(bytes.count)
        self.words = words
        self.phrases = phrases
        self.symbols = symbols
        symbolFilter = filter
        symbolStart = start
        symbolBytes = bytes
        symbolMarker = owner
        category = markers.map(\.category.rawValue)
        strength = markers.map(\.strength)
    }

    static let fnvOffset: UInt64 = 0xcbf29ce484222325
    static let fnvPrime: UInt64 = 0x100000001b3

    /// Lowercase ASCII words of a lexicon entry; a leading backslash stays part of its word (`\frac`).
    static func words(of bytes: [UInt8]) -> [UInt64] {
        var out: [UInt64] = []
        var h: UInt64 = 0, inWord = false
        for (i, b) in bytes.enumerated() {
            let lower = b | 0x20
            if lower >= 0x61 && lower <= 0x7A {
                if !inWord {
                    inWord = true
                    h = fnvOffset
                    if i > 0 && bytes[i - 1] == 0x5C { h = (h ^ 0x5C) &* fnvPrime }
                }
                h = (h ^ UInt64(lower)) &* fnvPrime
            } else if inWord {
                out.append(h)
                inWord = false
            }
        }
        if inWord { out.append(h) }
        return out
    }

    /// The key of a phrase from its word hashes (order matters).
    @inline(__always)
    static func phraseKey(_ a: UInt64, _ b: UInt64) -> UInt64 { ((a &* 0x9E3779B97F4A7C15) ^ b) &* fnvPrime }

    static func phraseKey(_ parts: [UInt64]) -> UInt64 {
        var k = parts[0]
        for p in parts.dropFirst() { k = phraseKey(k, p) }
        return k
    }
}

/// A fixed-size open-addressing table from a 64-bit hash to a small integer.
struct HashTable: Sendable {
    private var keys: [UInt64]
    private var values: [Int32]
    private let mask: Int

    init(capacity: Int) {
        keys = [UInt64](repeating: 0, count: capacity)
        values = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
    }

    @inline(__always)
    private static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: key ^ (key >> 29) ^ (key >> 47)) }

    mutating func insert(_ key: UInt64, _ value: Int32) {
        let key = key == 0 ? 1 : key
        var i = Self.slot(key) & mask
        while keys[i] != 0 && keys[i] != key { i = (i + 1) & mask }
        keys[i] = key
        values[i] = value
    }

    @inline(__always)
    func value(_ key: UInt64) -> Int32? {
        let key = key == 0 ? 1 : key
        var i = Self.slot(key) & mask
        while true {
            let k = keys[i]
            if k == key { return values[i] }
            if k == 0 { return nil }
            i = (i + 1) & mask
        }
    }
}
