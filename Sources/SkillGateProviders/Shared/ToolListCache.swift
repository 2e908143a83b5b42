import Glibc
import SkillGateCore
import Synchronization

/// Checked tool lists by the exact bytes they arrived as. An agent sends the same `tools` array on every turn; a hit
/// skips reading and checking it again (the tools' JSON is most of a tool-using request's). The decoded list is a pure
/// function of the bytes, so a hit returns what a fresh decode would; only lists that decoded without error are kept.
///
/// A list is found two ways: by the exact bytes of an array already read (`tools(for:scope:)`), or, before reading, by
/// the document's bytes ahead of the cursor (`tools(atStartOf:scope:)`): a kept list whose bytes begin them is the
/// array there, since the bytes of a valid array decide where it ends. The second way skips even the syntax check of
/// the array. Entries are keyed by their first `prefixBytes` bytes, so both ways find them with one hash.
///
/// Entries are scoped (the gateway uses the caller's token id), so whether a list is cached, which a hit's speed
/// could reveal, says nothing about other callers' requests. Bounded by entries and by bytes (each entry counts its
/// bytes twice: the key and the schemas kept in the tools); the least recently used entry goes first. Thread-safe.
public final class ToolListCache: Sendable {
    /// The largest `tools` array kept, in bytes; larger ones are decoded every time.
    public let maxEntryBytes: Int
    private let maxEntries: Int
    private let maxBytes: Int
    private let state: Mutex<State>

    private struct Entry {
        let scope: String
        let bytes: [UInt8]
        let tools: [ToolDefinition]
        var lastUsed: UInt64
    }

    private struct State {
        /// Entries by the hash of their scope and first `prefixBytes` bytes (all of a shorter list's, with its length);
        /// a bucket holds the lists that begin alike (tool lists of one app often share their first tool).
        var buckets: [Int: [Entry]] = [:]
        var entries = 0
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// A cache of at most `maxEntries` lists and about `maxBytes` bytes, keeping lists of up to `maxEntryBytes`.
    public init(maxEntries: Int = 64, maxBytes: Int = 4 << 20, maxEntryBytes: Int = 256 << 10) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
        self.maxEntryBytes = max(1, min(maxEntryBytes, maxBytes / 2))
        state = Mutex(State())
    }

    /// How many leading bytes of a list key its entry.
    static let prefixBytes = 64

    /// A kept list of `scope` whose bytes begin `document` (the bytes ahead of a JSON cursor at the `tools` value), with
    /// its length in bytes; nil when none does (then read the array and ask `tools(for:scope:)`, which counts the miss).
    /// Lists shorter than `prefixBytes` are found only that second way.
    public func tools(atStartOf document: UnsafeBufferPointer<UInt8>, scope: String) -> (tools: [ToolDefinition], length: Int)? {
        guard document.count >= Self.prefixBytes, document.first == UInt8(ascii: "[") else { return nil }
        let key = Self.hash(UnsafeBufferPointer(rebasing: document[0..<Self.prefixBytes]), scope, wholeList: false)
        return state.locked { s -> (tools: [ToolDefinition], length: Int)? in
            guard let i = s.buckets[key]?.firstIndex(where: { $0.scope == scope && Self.begins(document, with: $0.bytes) }) else {
                return nil
            }
            s.clock &+= 1
            s.hits += 1
            s.buckets[key]![i].lastUsed = s.clock   // in place: no copy of the bucket
            let entry = s.buckets[key]![i]
            return (entry.tools, entry.bytes.count)
        }
    }

    /// The tools decoded earlier from exactly `bytes` in `scope`, if kept.
    public func tools(for bytes: UnsafeBufferPointer<UInt8>, scope: String) -> [ToolDefinition]? {
        guard !bytes.isEmpty, bytes.count <= maxEntryBytes else { return nil }
        let key = Self.key(bytes, scope)
        return state.locked { s -> [ToolDefinition]? in
            s.clock &+= 1
            guard let i = s.buckets[key]?.firstIndex(where: { $0.scope == scope && Self.same($0.bytes, bytes) }) else {
                s.misses += 1
                return nil
            }
            s.hits += 1
            s.buckets[key]![i].lastUsed = s.clock   // in place: no copy of the bucket
            return s.buckets[key]![i].tools
        }
    }

    /// Keeps `tools`, decoded from `bytes`, for `scope`; evicts the least recently used entries beyond the bounds.
    public func remember(_ tools: [ToolDefinition], decodedFrom bytes: [UInt8], scope: String) {
        guard !bytes.isEmpty, bytes.count <= maxEntryBytes else { return }
        let key = bytes.withUnsafeBufferPointer { Self.key($0, scope) }
        state.locked { s in
            s.clock &+= 1
            var bucket = s.buckets[key] ?? []
            guard !bucket.contains(where: { $0.scope == scope && $0.bytes == bytes }) else { return }
            bucket.append(Entry(scope: scope, bytes: bytes, tools: tools, lastUsed: s.clock))
            s.buckets[key] = bucket
            s.entries += 1
            s.bytes += 2 * bytes.count
            while s.entries > maxEntries || s.bytes > maxBytes, Self.evictLeastRecentlyUsed(&s) {}
        }
    }

    /// How many lists are kept, their bytes as counted against the bound, and the lookups that hit and missed.
    public var statistics: (entries: Int, bytes: Int, hits: Int, misses: Int) {
        state.locked { ($0.entries, $0.bytes, $0.hits, $0.misses) }
    }

    /// Removes the least recently used entry; false when there is none.
    private static func evictLeastRecentlyUsed(_ s: inout State) -> Bool {
        var oldest: (key: Int, index: Int, lastUsed: UInt64)?
        for (key, bucket) in s.buckets {
            for (index, entry) in bucket.enumerated() where entry.lastUsed < oldest?.lastUsed ?? .max {
                oldest = (key, index, entry.lastUsed)
            }
        }
        guard let oldest, var bucket = s.buckets[oldest.key] else { return false }
        let removed = bucket.remove(at: oldest.index)
        s.buckets[oldest.key] = bucket.isEmpty ? nil : bucket
        s.entries -= 1
        s.bytes -= 2 * removed.bytes.count
        return true
    }

    private static func same(_ kept: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        kept.count == bytes.count && kept.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }

    private static func begins(_ document: UnsafeBufferPointer<UInt8>, with kept: [UInt8]) -> Bool {
        kept.count <= document.count && kept.withUnsafeBufferPointer { memcmp($0.baseAddress!, document.baseAddress!, kept.count) == 0 }
    }

    /// The bucket of a list's exact bytes: by its first `prefixBytes` bytes, or all of a shorter one's.
    private static func key(_ bytes: UnsafeBufferPointer<UInt8>, _ scope: String) -> Int {
        bytes.count >= prefixBytes ? hash(UnsafeBufferPointer(rebasing: bytes[0..<prefixBytes]), scope, wholeList: false)
                                   : hash(bytes, scope, wholeList: true)
    }

    /// A per-process random seed for `hash`.
    private static let seed = UInt64.random(in: .min ... .max)

    /// A fast seeded hash of the bytes (8 at a time, multiply and shift), combined with the scope. Not a
    /// cryptographic one: a hit is confirmed by comparing the bytes, and a caller who made their own lists collide
    /// would only slow their own lookups, at most `maxEntries` comparisons each. The standard library's SipHash took
    /// ~5 instructions a byte here, most of what a hit saves.
    /// `wholeList`: the bytes are a whole (short) list rather than a prefix, which keeps the two kinds of key apart.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ scope: String, wholeList: Bool) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var h = seed ^ (UInt64(truncatingIfNeeded: raw.count) &* 0x9E37_79B9_7F4A_7C15) ^ (wholeList ? 0x5A5A_5A5A : 0)
        var i = 0
        while i + 8 <= raw.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        var tail: UInt64 = 0
        while i < raw.count {
            tail = tail << 8 | UInt64(raw[i])
            i += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 29
        var hasher = Hasher()
        hasher.combine(scope)
        hasher.combine(h)
        return hasher.finalize()
    }
}
