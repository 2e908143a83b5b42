import Synchronization
@testable import SkillGateSkills

/// A `TextEmbedder` test double: vectors from a function of the text, every call recorded, and
/// an optional stall (a model that answers late), hold (one that answers only when released) or
/// failure.
final class FakeEmbedder: TextEmbedder {
    struct Call: Sendable, Hashable {
        var texts: [String]
        var purpose: EmbeddingPurpose
    }

    let identity: String
    private let stall: Mutex<Duration?>
    private let failure: Mutex<EmbeddingError?>
    private let seen = Mutex<[Call]>([])
    private let held = Atomic<Bool>(false)

    init(identity: String = "fake:model", stall: Duration? = nil, failure: EmbeddingError? = nil) {
        self.identity = identity
        self.stall = Mutex(stall)
        self.failure = Mutex(failure)
    }

    var calls: [Call] { seen.locked { $0 } }
    func setStall(_ d: Duration?) { stall.locked { $0 = d } }
    /// Calls wait (cancellably) until `release()`.
    func hold() { held.store(true, ordering: .relaxed) }
    func release() { held.store(false, ordering: .relaxed) }

    func embed(_ texts: [String], as purpose: EmbeddingPurpose) async throws -> [[Float]] {
        seen.locked { $0.append(Call(texts: texts, purpose: purpose)) }
        if let d = stall.locked({ $0 }) { try await Task.sleep(for: d) }
        while held.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(10)) }
        if let e = failure.locked({ $0 }) { throw e }
        return texts.map(Self.vector)
    }

    /// The answer of a broken embedding server: finite values whose length overflows a `Float` (attack round 5).
    static let huge: [Float] = [3e38, 3e38, 3e38]

    /// Texts about weather point one way, about mail another, anything else a third way; a text with
    /// `HUGE` in it gets `huge`.
    static func vector(_ text: String) -> [Float] {
        if text.contains("HUGE") { return huge }
        let t = text.lowercased()
        if t.contains("weather") || t.contains("天气") || t.contains("下雨") { return [1, 0.1, 0] }
        if t.contains("mail") || t.contains("邮件") { return [0, 1, 0.1] }
        return [0.1, 0, 1]
    }
}

/// An `EmbeddingStore` in memory, recording its calls.
final class MemoryEmbeddingStore: EmbeddingStore {
    private let rows = Mutex<[EmbeddingKey: [Float]]>([:])
    private let reads = Atomic<Int>(0)

    var readCount: Int { reads.load(ordering: .relaxed) }
    var count: Int { rows.locked { $0.count } }

    func vectors(for keys: [EmbeddingKey]) throws -> [EmbeddingKey: [Float]] {
        reads.add(1, ordering: .relaxed)
        return rows.locked { map in map.filter { keys.contains($0.key) } }
    }

    func store(_ vectors: [EmbeddingKey: [Float]]) throws {
        rows.locked { map in map.merge(vectors) { _, new in new } }
    }
}
