import Foundation
import SkillGateKeys
import SkillGateState

/// Measures client-token authentication: from the in-memory cache, through a SQLite lookup, for
/// unknown and malformed tokens, with SHA-256 of one token as the reference in the same run.
func runTokenBench() async throws {
    let dir = NSTemporaryDirectory() + "/skillgate-token-bench-\(ProcessInfo.processInfo.processIdentifier)"
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let store = try SQLiteStateStore(stateDirectory: dir)
    let cached = TokenService(store: store)
    let uncached = TokenService(store: store, cacheLifetime: .zero)
    let (token, _) = try cached.create(name: "bench")
    for i in 0..<200 { _ = try cached.create(name: "other-\(i)") }
    let unknown = try TokenFormat.generate()
    guard cached.authenticate(token) != nil, uncached.authenticate(token) != nil, cached.authenticate(unknown) == nil else {
        print("  token bench: authentication did not behave as expected; figures skipped")
        return
    }

    let sha = measureMicros(iterations: 20_000) { _ = TokenFormat.hash(token) }
    let hit = measureMicros(iterations: 20_000) { _ = cached.authenticate(token) }
    let lookup = measureMicros(iterations: 5_000) { _ = uncached.authenticate(token) }
    let miss = measureMicros(iterations: 5_000) { _ = cached.authenticate(unknown) }
    let malformed = measureMicros(iterations: 20_000) { _ = cached.authenticate("sk-not-a-skillgate-token") }
    report("SHA-256 of one token (reference)", sha, unit: "µs")
    report("authenticate, cached", hit, unit: "µs", target: "target < 5 µs")
    report("authenticate, SQLite lookup (no cache)", lookup, unit: "µs", target: "target < 50 µs")
    report("authenticate, unknown token (SQLite miss)", miss, unit: "µs", target: "target < 50 µs")
    report("authenticate, malformed (no hash, no lookup)", malformed, unit: "µs")
    try cached.flushLastUsed()
}
