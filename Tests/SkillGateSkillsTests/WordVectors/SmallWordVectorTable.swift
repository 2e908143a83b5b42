import SkillGateSkills

/// Writes a word-vector table in the built-in table's format (as scripts/word-vectors/build.py does):
/// words sorted bytewise, each vector quantised to 4 bits with a scale that makes it unit length.
enum SmallWordVectorTable {
    static func bytes(_ entries: [(word: String, vector: [Float])]) -> [UInt8] {
        let dimensions = entries.first?.vector.count ?? 0
        let sorted = entries.sorted { Array($0.word.utf8).lexicographicallyPrecedes(Array($1.word.utf8)) }
        var out = Array("SGWV0002".utf8)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out += $0 } }
        u32(sorted.count)
        u32(dimensions)
        var blob: [UInt8] = []
        u32(0)
        for e in sorted {
            blob += Array(e.word.utf8)
            u32(blob.count)
        }
        out += blob
        out += [UInt8](repeating: 0, count: (4 - blob.count % 4) % 4)
        var rows: [UInt8] = []
        for e in sorted {
            let peak = e.vector.map(abs).max() ?? 1
            let levels = e.vector.map { Int((($0 / peak) * 7).rounded()) }
            let norm = Float(levels.map { $0 * $0 }.reduce(0, +)).squareRoot()
            withUnsafeBytes(of: (1 / norm).bitPattern.littleEndian) { out += $0 }
            for pair in 0..<(dimensions / 2) {
                rows.append(UInt8(levels[2 * pair] + 8) | (UInt8(levels[2 * pair + 1] + 8) << 4))
            }
        }
        return out + rows
    }

    static func table(_ entries: [(word: String, vector: [Float])]) throws -> WordVectorTable {
        try WordVectorTable(bytes: bytes(entries))
    }
}
