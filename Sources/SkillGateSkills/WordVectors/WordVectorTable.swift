import CWordVectors
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only table of static word vectors: one unit vector per word, looked up by the word's
/// UTF-8 bytes (decision 0040). The built-in table holds multilingual-e5-small's vector of each
/// common English word and Chinese character or character pair, centred per language so words
/// of the same meaning meet across languages.
///
/// Format (little-endian), as `scripts/word-vectors/build.py` writes it:
/// ```
/// "SGWV0002"                     8 bytes
/// count, dimensions              UInt32 each (dimensions even)
/// offsets                        UInt32 × (count + 1): word i is blob[offsets[i] ..< offsets[i+1]]
/// blob                           the words' UTF-8 bytes, sorted bytewise; zero-padded to 4 bytes
/// scales                         Float32 × count: each row times its scale is unit length
/// rows                           count × dimensions/2 bytes: two 4-bit components a byte, the even
///                                dimension in the low nibble, each stored as value + 8 (values −7…7)
/// ```
/// Four bits a component lose nothing measurable on the evaluation corpus against eight and halve the
/// table. Lookups are a binary search over the sorted words; nothing is copied or allocated.
public struct WordVectorTable: @unchecked Sendable {
    // `@unchecked`: `base` points either into the executable's read-only data (the built-in table)
    // or into `owner`'s buffer, which is never written after `init`; both outlive every table value.
    private let base: UnsafeRawPointer
    private let owner: OwnedBytes?
    /// The number of words.
    public let count: Int
    /// The length of each vector.
    public let dimensions: Int
    private let offsetsStart: Int, blobStart: Int, scalesStart: Int, rowsStart: Int

    /// The table assembled into the executable (`Sources/CWordVectors/data/word-vectors.bin`); `nil`
    /// only if that file was replaced by something that is not a table. Its header and size are
    /// checked here; the order of its words is checked by the tests (`WordVectorTableTests`), not at
    /// every start, which would read a megabyte of pages an idle gateway never needs.
    public static let builtIn: WordVectorTable? = {
        let bytes = UnsafeRawBufferPointer(start: skillgate_word_vectors_bytes(), count: skillgate_word_vectors_count())
        return try? WordVectorTable(validating: bytes, owner: nil, checkingWords: false)
    }()

    /// Whether every word is non-empty and the words ascend bytewise (what lookups rely on).
    public var wordsAreInOrder: Bool {
        for i in 1...count where offset(i) <= offset(i - 1) { return false }
        for i in 1..<count where compare(word: i - 1, with: word(i)) >= 0 { return false }
        return true
    }

    /// A table over a copy of `bytes` (for tables built in tests or loaded from a file).
    /// - Throws: `WordVectorTableError` when the bytes are not a well-formed table.
    public init(bytes: [UInt8]) throws(WordVectorTableError) {
        let owner = OwnedBytes(bytes)
        try self.init(validating: UnsafeRawBufferPointer(start: owner.pointer, count: bytes.count), owner: owner, checkingWords: true)
    }

    private init(validating bytes: UnsafeRawBufferPointer, owner: OwnedBytes?, checkingWords: Bool) throws(WordVectorTableError) {
        func fail(_ why: String) -> WordVectorTableError { WordVectorTableError(message: why) }
        guard let base = bytes.baseAddress, bytes.count >= 16 else { throw fail("shorter than its 16-byte header") }
        guard Array(bytes[0..<8]) == Array("SGWV0002".utf8) else { throw fail("does not start with \"SGWV0002\" (format 2)") }
        let count = Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian)
        let dimensions = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        guard count > 0, (2...4096).contains(dimensions), dimensions % 2 == 0 else { throw fail("has \(count) words of \(dimensions) dimensions") }
        let offsetsStart = 16
        let blobStart = offsetsStart + 4 * (count + 1)
        guard blobStart <= bytes.count else { throw fail("ends inside its word offsets") }
        func offset(_ i: Int) -> Int { Int(bytes.loadUnaligned(fromByteOffset: offsetsStart + 4 * i, as: UInt32.self).littleEndian) }
        guard offset(0) == 0 else { throw fail("its first word does not start at 0") }
        let blobLength = offset(count)
        let scalesStart = blobStart + (blobLength + 3) / 4 * 4
        let rowsStart = scalesStart + 4 * count
        guard rowsStart + count * dimensions / 2 == bytes.count else {
            throw fail("is \(bytes.count) bytes; \(count) words of \(dimensions) dimensions need \(rowsStart + count * dimensions / 2)")
        }
        self.base = base
        self.owner = owner
        self.count = count
        self.dimensions = dimensions
        self.offsetsStart = offsetsStart
        self.blobStart = blobStart
        self.scalesStart = scalesStart
        self.rowsStart = rowsStart
        if checkingWords, !wordsAreInOrder {
            throw fail("has an empty word, or words not in ascending byte order")
        }
    }

    /// The index of `word` (UTF-8 bytes, as stored: lower-case English, Han characters), if the table has it.
    public func index(of word: UnsafeRawBufferPointer) -> Int? {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            let c = compare(word: mid, with: word)
            if c == 0 { return mid }
            if c < 0 { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    /// The index of `word`, if the table has it.
    public func index(of word: String) -> Int? {
        var w = word
        return w.withUTF8 { index(of: UnsafeRawBufferPointer($0)) }
    }

    /// Adds `weight` × the unit vector of word `index` to `sum` (`dimensions` floats).
    public func accumulate(_ index: Int, weight: Float, into sum: UnsafeMutableBufferPointer<Float>) {
        let scale = weight * base.loadUnaligned(fromByteOffset: scalesStart + 4 * index, as: Float.self)
        let row = (base + rowsStart + index * (dimensions / 2)).assumingMemoryBound(to: UInt8.self)
        for pair in 0..<(dimensions / 2) {
            let byte = row[pair]
            sum[2 * pair] += scale * Float(Int(byte & 0x0F) - 8)
            sum[2 * pair + 1] += scale * Float(Int(byte >> 4) - 8)
        }
    }

    /// The unit vector of word `index`.
    public func vector(_ index: Int) -> [Float] {
        var v = [Float](repeating: 0, count: dimensions)
        v.withUnsafeMutableBufferPointer { accumulate(index, weight: 1, into: $0) }
        return v
    }

    /// The bytes of word `index`.
    private func word(_ index: Int) -> UnsafeRawBufferPointer {
        let start = offset(index), end = offset(index + 1)
        return UnsafeRawBufferPointer(start: base + blobStart + start, count: end - start)
    }

    private func offset(_ i: Int) -> Int {
        Int(base.loadUnaligned(fromByteOffset: offsetsStart + 4 * i, as: UInt32.self).littleEndian)
    }

    /// Word `index` against `other`, bytewise (shorter first on a common prefix): <0, 0, >0.
    private func compare(word index: Int, with other: UnsafeRawBufferPointer) -> Int {
        let mine = word(index)
        let n = min(mine.count, other.count)
        if n > 0 {
            let c = memcmp(mine.baseAddress!, other.baseAddress!, n)
            if c != 0 { return Int(c) }
        }
        return mine.count - other.count
    }
}

/// Why bytes are not a word-vector table.
public struct WordVectorTableError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String {
        "the word-vector table \(message); rebuild it with scripts/word-vectors/build.sh"
    }
}

/// A heap copy of a table's bytes that lives as long as any table value over it.
private final class OwnedBytes: Sendable {
    // Written once in `init`, read-only after.
    nonisolated(unsafe) let pointer: UnsafeMutableRawPointer

    init(_ bytes: [UInt8]) {
        pointer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { if let b = $0.baseAddress { pointer.copyMemory(from: b, byteCount: $0.count) } }
    }

    deinit { pointer.deallocate() }
}
