import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Remembers the `SkillDocument` of each (name, description) a client declared, so the tools that
/// come with every request are tokenised once, not per request. The parameters are not part of the
/// key: a tool declared again with the same name and description is taken to have the same
/// parameters (at worst a changed parameter description ranks by its old words until the cache
/// starts over; what goes upstream is always the declared tool). Bounded in documents and in bytes
/// (`capacity`, `maxBytes`): when full it starts over, so clients declaring ever-new descriptions
/// cannot grow it without limit (decision 0083).
///
/// Keys are hashes of the UTF-8 bytes (Swift's `String` hashing normalises Unicode, which costs
/// more than the ranking itself for Chinese descriptions); a hit is confirmed byte for byte.
public final class SkillDocumentCache: Sendable {
    private struct Entry: Sendable {
        var name: String
        var description: String?
        var document: SkillDocument
        /// Unique in the process (see `entries(for:)`).
        var identity: Int
    }

    /// Identities come from one counter for every cache in the process, so two rankers' caches can
    /// share a consumer of identities (the built-in `WordVectorScorer`) without their numbers meeting.
    private static let nextIdentity = Atomic<Int>(0)

    private struct Entries {
        var byKey: [Int: Entry] = [:]
        /// What the entries hold, as `cost(of:)` counts it.
        var bytes = 0
    }

    private let entries = Mutex(Entries())
    /// The most documents kept.
    public let capacity: Int
    /// About the most bytes the documents, names and descriptions kept take.
    public let maxBytes: Int

    public init(capacity: Int = 4096, maxBytes: Int = 16 << 20) {
        self.capacity = capacity
        self.maxBytes = maxBytes
    }

    /// The documents of `candidates`, in order, from the cache or built (and cached). Metadata is
    /// not part of the key: it comes from config, which does not change while a cache lives.
    public func documents(for candidates: [SkillCandidate]) -> [SkillDocument] {
        entries(for: candidates).documents
    }

    /// The documents of `candidates`, and for each an identity: a number given to one (name,
    /// description) of one cache and never to anything else in the process, so an array of identities
    /// names a set of skills without comparing their texts again (`WordVectorScorer` keys its per-set
    /// vectors by it). A document built again after the cache starts over gets a new identity.
    public func entries(for candidates: [SkillCandidate]) -> (documents: [SkillDocument], identities: [Int]) {
        let keys = candidates.map(Self.key)
        var found: [Entry?] = entries.locked { cached in
            zip(keys, candidates).map { key, c in
                guard let e = cached.byKey[key], Self.same(e.name, c.name), Self.same(e.description, c.description) else { return nil }
                return e
            }
        }
        var missing: [Int] = []
        for i in candidates.indices where found[i] == nil {
            missing.append(i)
            found[i] = Entry(name: candidates[i].name, description: candidates[i].description, document: candidates[i].document,
                             identity: Self.nextIdentity.add(1, ordering: .relaxed).oldValue)
        }
        if !missing.isEmpty {
            let added = missing.reduce(0) { $0 + Self.cost(of: found[$1]!) }
            entries.locked { cached in
                if cached.byKey.count + missing.count > capacity || cached.bytes + added > maxBytes {
                    cached.byKey.removeAll(keepingCapacity: true)
                    cached.bytes = 0
                }
                for i in missing {
                    if let replaced = cached.byKey.updateValue(found[i]!, forKey: keys[i]) { cached.bytes -= Self.cost(of: replaced) }
                }
                cached.bytes += added
            }
        }
        return (found.map { $0!.document }, found.map { $0!.identity })
    }

    /// How many documents are cached.
    public var count: Int { entries.locked { $0.byKey.count } }

    /// How many bytes the cached entries take, as `cost(of:)` counts them.
    public var bytes: Int { entries.locked { $0.bytes } }

    /// An entry's bytes: its texts, its document's keys and counts (8 bytes each), and a fixed overhead.
    private static func cost(of entry: Entry) -> Int {
        entry.name.utf8.count + (entry.description?.utf8.count ?? 0) + 16 * entry.document.keys.count + 128
    }

    /// A cheap key: the name, the description's length and its first and last 32 bytes (a hit is
    /// confirmed byte for byte, so a collision only costs a rebuild).
    private static func key(_ c: SkillCandidate) -> Int {
        var hasher = Hasher()
        var name = c.name
        name.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if var d = c.description {
            d.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(32))))
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(32))))
            }
        } else {
            hasher.combine(-1)
        }
        return hasher.finalize()
    }

    private static func same(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (var a?, var b?):
            return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) } }
        default: return false
        }
    }
}
