import SkillGateCore
import SkillGateKeys

/// What finds a kept answer: the client token it belongs to and a SHA-256 of everything that changes the model's
/// answer, taken after the pipeline decided it. The token is compared as it is, not
/// only hashed in: an answer is never served to another token (decision 0140).
struct ResponseCacheKey: Hashable, Sendable {
    /// The client token's id.
    let scope: String
    /// The SHA-256 of the request's canonical bytes, as four words.
    let digest: SIMD4<UInt64>

    init(scope: String, digest: SIMD4<UInt64>) {
        self.scope = scope
        self.digest = digest
    }

    /// The key of the answer to `request` (with the tools shown after the skill cut) for `tokenId` in `scenario`, along
    /// `plan` (and `escalation`, when the scenario escalates): the token, and the SHA-256 of its canonical bytes
    /// (`CacheKeyBytes`): the token, the scenario, the model as requested and the deployments it resolved to (the plan's
    /// and the escalation plan's, in order), and the request as the model sees it (messages, tools, the sampling and
    /// output parameters). Not the surface nor whether the answer streams: answers are kept in the wire-neutral model
    /// and encoded per request. Not what changes only the cost (prompt-cache breakpoints and placement,
    /// `prompt_cache_key`).
    init(tokenId: String, scenario: String, plan: RoutePlan, escalation: RoutePlan?, request: ChatRequest) {
        var bytes = CacheKeyBytes()
        bytes.string(tokenId)
        bytes.string(scenario)
        bytes.string(plan.requested)
        bytes.strings(plan.targets.map(\.qualifiedName))
        bytes.optional(escalation) { $0.strings($1.targets.map(\.qualifiedName)) }
        bytes.request(request)
        self.init(scope: tokenId, digest: bytes.sha256())
    }
}

/// The canonical bytes of a request's cache key: every field tagged by its position and every text length-prefixed, so
/// two requests give the same bytes only when they are the same request.
struct CacheKeyBytes {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1024) }

    mutating func byte(_ b: UInt8) { bytes.append(b) }

    mutating func int(_ value: Int) {
        withUnsafeBytes(of: UInt64(bitPattern: Int64(value)).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) { int(Int(bitPattern: UInt(value.bitPattern))) }

    mutating func bool(_ value: Bool) { byte(value ? 1 : 0) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            int(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func strings(_ values: [String]) {
        int(values.count)
        for value in values { string(value) }
    }

    /// A length-prefixed run of bytes written by `write`.
    mutating func counted(_ write: (inout [UInt8]) -> Void) {
        var inner: [UInt8] = []
        write(&inner)
        int(inner.count)
        bytes.append(contentsOf: inner)
    }

    /// 0 for nil, else 1 and the value.
    mutating func optional<T>(_ value: T?, _ write: (inout CacheKeyBytes, T) -> Void) {
        guard let value else { return byte(0) }
        byte(1)
        write(&self, value)
    }

    mutating func json(_ value: JSONValue?) {
        optional(value) { b, v in b.counted { v.write(to: &$0) } }
    }

    /// The SHA-256 of the bytes, as four words.
    func sha256() -> SIMD4<UInt64> {
        let d = SHA256Hash.digest(bytes)
        func word(_ i: Int) -> UInt64 { d[i * 8..<i * 8 + 8].reduce(0) { $0 << 8 | UInt64($1) } }
        return SIMD4(word(0), word(1), word(2), word(3))
    }
}
