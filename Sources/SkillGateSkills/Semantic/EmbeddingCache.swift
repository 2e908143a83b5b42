import SkillGateCore
import Synchronization

/// Document vectors by `EmbeddingKey`: in memory (bounded: when full it starts over, like
/// `SkillDocumentCache`) in front of an optional persistent `EmbeddingStore`, so a tool's vector
/// is fetched from the model once and survives a restart.
///
/// A store that fails is not fatal (the cache is an optimisation): the failure is counted
/// (`storeFailures`) and the vectors are fetched from the model again.
///
/// It holds unit vectors only (decision 0102): `insert` scales each to length 1 and drops one that
/// has no length (`UnitVector`), and a stored vector is checked the same way when it is read back (a
/// store written by an older build may hold one of 3e38 values): one that fails is a miss, so it is
/// embedded again and replaced.
public final class EmbeddingCache: Sendable {
    /// The most vectors kept in memory.
    public let capacity: Int
    private let memory = Mutex<[EmbeddingKey: [Float]]>([:])
    private let store: (any EmbeddingStore)?
    private let failures = Atomic<Int>(0)
    private let storeReads = BlockingWorkQueue(label: "skillgate.embedding-store-reads")
    private let storeWrites = BlockingWorkQueue(label: "skillgate.embedding-store-writes")

    public init(capacity: Int = 4096, store: (any EmbeddingStore)? = nil) {
        self.capacity = max(1, capacity)
        self.store = store
    }

    /// The cached vector of each key (`nil` where none is cached): memory first, where the caller runs, then the
    /// store, read on a queue of its own (never on the caller's event loop: SQLite behind a ledger batch holds a read
    /// for as long as the batch; decision 0086), whose hits are kept in memory.
    public func vectors(for keys: [EmbeddingKey]) async -> [[Float]?] {
        var found: [[Float]?] = memory.locked { map in keys.map { map[$0] } }
        let missing = keys.indices.filter { found[$0] == nil }
        guard !missing.isEmpty, let store else { return found }
        let wanted = missing.map { keys[$0] }
        let stored: [EmbeddingKey: [Float]]
        do {
            stored = try await storeReads.run { try store.vectors(for: wanted) }
        } catch {
            failures.add(1, ordering: .relaxed)
            return found
        }
        let usable = Self.units(stored)
        guard !usable.isEmpty else { return found }
        for i in missing { found[i] = usable[keys[i]] }
        remember(usable)
        return found
    }

    /// Caches `vectors`, each at unit length, in memory and in the store; one without a finite, non-zero
    /// length is not cached.
    public func insert(_ vectors: [EmbeddingKey: [Float]]) async {
        let vectors = Self.units(vectors)
        guard !vectors.isEmpty else { return }
        remember(vectors)
        guard let store else { return }
        // On a queue of its own, as the reads: a write may wait for the store's connection (held by the ledger's writer
        // for a batch) or another process's lock, which must not hold a thread of the shared task pool (decision 0159).
        do { try await storeWrites.run { try store.store(vectors) } } catch { failures.add(1, ordering: .relaxed) }
    }

    /// How many vectors are in memory.
    public var count: Int { memory.locked { $0.count } }

    /// How many reads or writes of the persistent store failed.
    public var storeFailures: Int { failures.load(ordering: .relaxed) }

    /// `vectors` at unit length, without those that have none.
    private static func units(_ vectors: [EmbeddingKey: [Float]]) -> [EmbeddingKey: [Float]] {
        vectors.compactMapValues { UnitVector.unit($0) }
    }

    private func remember(_ vectors: [EmbeddingKey: [Float]]) {
        memory.locked { map in
            if map.count + vectors.count > capacity { map.removeAll(keepingCapacity: true) }
            for (key, vector) in vectors.prefix(capacity) { map[key] = vector }
        }
    }
}
