import Testing
@testable import SkillGateSkills

@Suite struct EmbeddingCacheTests {
    static func key(_ text: String, identity: String = "m1", purpose: EmbeddingPurpose = .document) -> EmbeddingKey {
        EmbeddingKey(identity: identity, purpose: purpose, text: text)
    }

    @Test func aMemoryHitNeedsNoStoreRead() {
        let store = MemoryEmbeddingStore()
        let cache = EmbeddingCache(store: store)
        cache.insert([Self.key("get weather"): [1, 2, 3]])
        #expect(cache.vectors(for: [Self.key("get weather")]) == [[1, 2, 3]])
        #expect(store.readCount == 0 && store.count == 1)
    }

    @Test func theKeyIncludesIdentityAndPurpose() {
        let cache = EmbeddingCache()
        cache.insert([Self.key("weather"): [1, 0, 0]])
        #expect(cache.vectors(for: [Self.key("weather", identity: "m2"), Self.key("weather", purpose: .query), Self.key("weather")])
            == [nil, nil, [1, 0, 0]])
        // The content a persistent store hashes differs with each part.
        let contents = Set([Self.key("weather"), Self.key("weather", identity: "m2"), Self.key("weather", purpose: .query)].map(\.content))
        #expect(contents.count == 3)
    }

    @Test func aStoreHitAfterARestartIsRememberedInMemory() {
        let store = MemoryEmbeddingStore()
        EmbeddingCache(store: store).insert([Self.key("send email"): [0, 1, 0]])
        let fresh = EmbeddingCache(store: store)  // a new process on the same store
        #expect(fresh.count == 0)
        #expect(fresh.vectors(for: [Self.key("send email"), Self.key("unknown")]) == [[0, 1, 0], nil])
        #expect(fresh.count == 1)
        let reads = store.readCount
        #expect(fresh.vectors(for: [Self.key("send email")]) == [[0, 1, 0]])
        #expect(store.readCount == reads)
    }

    @Test func memoryIsBoundedAndStartsOverWhenFull() {
        let cache = EmbeddingCache(capacity: 3)
        cache.insert([Self.key("a"): [1], Self.key("b"): [2]])
        cache.insert([Self.key("c"): [3], Self.key("d"): [4]])
        #expect(cache.count == 2)
        #expect(cache.vectors(for: [Self.key("c"), Self.key("d")]) == [[3], [4]])
    }

    @Test func aFailingStoreIsCountedNotFatal() {
        struct Broken: EmbeddingStore {
            struct Failure: Error {}
            func vectors(for keys: [EmbeddingKey]) throws -> [EmbeddingKey: [Float]] { throw Failure() }
            func store(_ vectors: [EmbeddingKey: [Float]]) throws { throw Failure() }
        }
        let cache = EmbeddingCache(store: Broken())
        cache.insert([Self.key("a"): [1]])
        #expect(cache.vectors(for: [Self.key("a"), Self.key("b")]) == [[1], nil])
        #expect(cache.storeFailures == 2)
    }
}
