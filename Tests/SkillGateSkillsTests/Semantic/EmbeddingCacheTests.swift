import Glibc
import Synchronization
import Testing
import SkillGateTestSupport
@testable import SkillGateSkills

@Suite struct EmbeddingCacheTests {
    static func key(_ text: String, identity: String = "m1", purpose: EmbeddingPurpose = .document) -> EmbeddingKey {
        EmbeddingKey(identity: identity, purpose: purpose, text: text)
    }

    @Test func aMemoryHitNeedsNoStoreRead() async {
        let store = MemoryEmbeddingStore()
        let cache = EmbeddingCache(store: store)
        await cache.insert([Self.key("get weather"): [0, 0.6, 0.8]])
        #expect(await cache.vectors(for: [Self.key("get weather")]) == [[0, 0.6, 0.8]])
        #expect(store.readCount == 0 && store.count == 1)
    }

    @Test func theKeyIncludesIdentityAndPurpose() async {
        let cache = EmbeddingCache()
        await cache.insert([Self.key("weather"): [1, 0, 0]])
        #expect(await cache.vectors(for: [Self.key("weather", identity: "m2"), Self.key("weather", purpose: .query), Self.key("weather")])
            == [nil, nil, [1, 0, 0]])
        // The content a persistent store hashes differs with each part.
        let contents = Set([Self.key("weather"), Self.key("weather", identity: "m2"), Self.key("weather", purpose: .query)].map(\.content))
        #expect(contents.count == 3)
    }

    @Test func aStoreHitAfterARestartIsRememberedInMemory() async {
        let store = MemoryEmbeddingStore()
        await EmbeddingCache(store: store).insert([Self.key("send email"): [0, 1, 0]])
        let fresh = EmbeddingCache(store: store)  // a new process on the same store
        #expect(fresh.count == 0)
        #expect(await fresh.vectors(for: [Self.key("send email"), Self.key("unknown")]) == [[0, 1, 0], nil])
        #expect(fresh.count == 1)
        let reads = store.readCount
        #expect(await fresh.vectors(for: [Self.key("send email")]) == [[0, 1, 0]])
        #expect(store.readCount == reads)
    }

    @Test func memoryIsBoundedAndStartsOverWhenFull() async {
        let cache = EmbeddingCache(capacity: 3)
        await cache.insert([Self.key("a"): [1, 0], Self.key("b"): [0, 1]])
        await cache.insert([Self.key("c"): [-1, 0], Self.key("d"): [0, -1]])
        #expect(cache.count == 2)
        #expect(await cache.vectors(for: [Self.key("c"), Self.key("d")]) == [[-1, 0], [0, -1]])
    }

    /// Decision 0102: the cache holds unit vectors only, whoever inserts.
    @Test func insertKeepsUnitVectorsOnlyInMemoryAndInTheStore() async throws {
        let store = MemoryEmbeddingStore()
        let cache = EmbeddingCache(store: store)
        await cache.insert([Self.key("a"): [3, 0, 4], Self.key("huge"): [3e38, 3e38, 3e38], Self.key("zero"): [0, 0, 0], Self.key("nan"): [.nan, 0, 1]])
        let found = await cache.vectors(for: [Self.key("a"), Self.key("huge"), Self.key("zero"), Self.key("nan")])
        let a = try #require(found[0])
        #expect(abs(a[0] - 0.6) < 1e-6 && a[1] == 0 && abs(a[2] - 0.8) < 1e-6, "\(a)")
        #expect(found[1...].allSatisfy { $0 == nil }, "\(found)")
        #expect(store.count == 1 && cache.count == 1)
    }

    @Test func theStoreIsReadOffTheCallersThread() async {
        /// Records the thread each read runs on.
        final class Recording: EmbeddingStore {
            let readOn = Mutex<[pthread_t]>([])
            func vectors(for keys: [EmbeddingKey]) throws -> [EmbeddingKey: [Float]] {
                readOn.locked { $0.append(pthread_self()) }
                return [:]
            }
            func store(_ vectors: [EmbeddingKey: [Float]]) throws {}
        }
        let store = Recording()
        let cache = EmbeddingCache(store: store)
        // A thread of the caller's own stands in for an event loop (decision 0086).
        let (caller, found) = await onOwnThread { (pthread_self(), await cache.vectors(for: [Self.key("a")])) }
        #expect(found == [nil])
        let threads = store.readOn.locked { $0 }
        #expect(threads.count == 1 && !threads.contains(where: { pthread_equal($0, caller) != 0 }), "the store was read on the caller's thread")
    }

    /// Decision 0159: a write may wait for the store's connection or another process's lock, so it runs on a queue of
    /// its own, not on the caller's thread (a task of the shared pool, or an event loop).
    @Test func theStoreIsWrittenOffTheCallersThread() async {
        final class Recording: EmbeddingStore {
            let writtenOn = Mutex<[pthread_t]>([])
            func vectors(for keys: [EmbeddingKey]) throws -> [EmbeddingKey: [Float]] { [:] }
            func store(_ vectors: [EmbeddingKey: [Float]]) throws { writtenOn.locked { $0.append(pthread_self()) } }
        }
        let store = Recording()
        let cache = EmbeddingCache(store: store)
        let caller = await onOwnThread { () async -> pthread_t in
            await cache.insert([Self.key("a"): [1, 0]])
            return pthread_self()
        }
        let threads = store.writtenOn.locked { $0 }
        #expect(threads.count == 1 && !threads.contains(where: { pthread_equal($0, caller) != 0 }), "the store was written on the caller's thread")
    }

    @Test func aFailingStoreIsCountedNotFatal() async {
        struct Broken: EmbeddingStore {
            struct Failure: Error {}
            func vectors(for keys: [EmbeddingKey]) throws -> [EmbeddingKey: [Float]] { throw Failure() }
            func store(_ vectors: [EmbeddingKey: [Float]]) throws { throw Failure() }
        }
        let cache = EmbeddingCache(store: Broken())
        await cache.insert([Self.key("a"): [1]])
        #expect(await cache.vectors(for: [Self.key("a"), Self.key("b")]) == [[1], nil])
        #expect(cache.storeFailures == 2)
    }
}
