import Testing
import SkillGateCore
@testable import SkillGateProviders

/// A `tools` array taken from the cache decodes to exactly what a fresh decode gives; only lists from requests that
/// decoded without error are kept; scopes do not share; the bounds hold.
@Suite struct ToolListCacheTests {
    static func body(tools: String, extra: String = "") -> [UInt8] {
        Array(#"{"model":"m","messages":[{"role":"user","content":"hi"}]\#(extra),"tools":\#(tools)}"#.utf8)
    }

    static let threeTools = """
        [ {"type": "function", "function": {"name": "a", "description": "A.", "parameters": {"type": "object",
          "properties": {"city": {"type": "string"}}}, "strict": true}},
          {"type":"function","function":{"name":"b","parameters":{"q":"say \\"x\\""}}},
          {"type":"function","function":{"name":"c"}} ]
        """

    /// Request bodies: tools with text and tree schemas, and the benchmark's requests.
    static let bodies: [String] = ["three tools", "Bench/proxy/request.json", "Bench/proxy/request-stream.json"]

    static func bytes(_ name: String) throws -> [UInt8] {
        switch name {
        case "three tools": return body(tools: threeTools)
        default: return try Fixtures.repositoryBytes(name)
        }
    }

    @Test(arguments: bodies)
    func aHitDecodesAsAFreshDecodeDoes(name: String) throws {
        let body = try Self.bytes(name)
        let cache = ToolListCache()
        let fresh = try OpenAIChatFormat.decodeInboundRequest(body)
        let miss = try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "token-1")
        let hit = try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "token-1")
        #expect(!fresh.request.tools.isEmpty)
        #expect(miss == fresh)
        #expect(hit == fresh)
        #expect(hit.request.tools.map(\.schema.compactText) == fresh.request.tools.map(\.schema.compactText))
        let stats = cache.statistics
        #expect((stats.entries, stats.hits, stats.misses) == (1, 1, 1))
    }

    /// Malformed and wrongly shaped bodies fail with the same message and field with a cache as without, every time,
    /// and leave nothing in it.
    @Test(arguments: OpenAIChatInboundBodyTests.badBodies)
    func badBodiesFailTheSameAndAreNotKept(text: String) {
        let body = Array(text.utf8)
        let cache = ToolListCache()
        let without = Result { try OpenAIChatFormat.decodeInboundRequest(body) }
        for _ in 0..<2 {
            let with = Result { try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "t") }
            guard case .failure(let expected as GatewayError) = without, case .failure(let got as GatewayError) = with else {
                Issue.record("both must fail with a GatewayError: \(without) / \(with)")
                return
            }
            #expect(got.message == expected.message)
            #expect(got.param == expected.param)
        }
        #expect(cache.statistics.entries == 0)
    }

    /// A list is kept only once the whole request decoded: a good list in a request refused for another field (here
    /// `tool_choice` naming no tool, and `n: 2`) is read and checked again next time, and refused again.
    @Test(arguments: [#","tool_choice":{"type":"function","function":{"name":"nope"}}"#, #","n":2"#])
    func aListInARefusedRequestIsNotKept(extra: String) {
        let body = Self.body(tools: Self.threeTools, extra: extra)
        let cache = ToolListCache()
        for _ in 0..<2 {
            #expect(throws: GatewayError.self) { try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "t") }
        }
        #expect(cache.statistics.entries == 0)
        #expect(cache.statistics.hits == 0)
    }

    /// A kept list, recognised by its bytes and not read again, in a body that repeats a key (`tools` itself, or a key
    /// before or after the list): refused as without the cache, naming the key; the list stays kept.
    @Test(arguments: [
        (#"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":TOOLS,"tools":TOOLS}"#, "tools"),
        (#"{"model":"m","model":"m","messages":[{"role":"user","content":"hi"}],"tools":TOOLS}"#, "model"),
        (#"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":TOOLS,"stream":false,"stream":true}"#, "stream"),
    ])
    func aKeptListInABodyWithARepeatedKeyIsRefused(template: String, key: String) throws {
        let cache = ToolListCache()
        _ = try OpenAIChatFormat.decodeInboundRequest(Self.body(tools: Self.threeTools), toolCache: cache, scope: "t")
        let body = Array(template.replacing("TOOLS", with: Self.threeTools).utf8)
        let without = Result { try OpenAIChatFormat.decodeInboundRequest(body) }
        let with = Result { try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "t") }
        guard case .failure(let expected as GatewayError) = without, case .failure(let got as GatewayError) = with else {
            Issue.record("both must fail with a GatewayError: \(without) / \(with)")
            return
        }
        #expect(got.message == expected.message)
        #expect(got.message.contains("the key \"\(key)\" appears twice in one object"), "\(got.message)")
        #expect(cache.statistics.entries == 1)
    }

    @Test func scopesDoNotShareEntries() throws {
        let body = Self.body(tools: Self.threeTools)
        let cache = ToolListCache()
        _ = try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "token-a")
        _ = try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "token-b")
        #expect(cache.statistics.hits == 0)
        #expect(cache.statistics.entries == 2)
        _ = try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "token-a")
        #expect(cache.statistics.hits == 1)
    }

    /// The key is the bytes as sent: the same tools with other whitespace are another entry, and decode the same.
    @Test func otherBytesForTheSameToolsMiss() throws {
        let cache = ToolListCache()
        let spaced = try OpenAIChatFormat.decodeInboundRequest(Self.body(tools: Self.threeTools), toolCache: cache, scope: "t")
        let compact = Array(#"[{"type":"function","function":{"name":"a","description":"A.","parameters":{"type":"object","properties":{"city":{"type":"string"}}},"strict":true}},{"type":"function","function":{"name":"b","parameters":{"q":"say \"x\""}}},{"type":"function","function":{"name":"c"}}]"#.utf8)
        let again = try OpenAIChatFormat.decodeInboundRequest(Self.body(tools: String(decoding: compact, as: UTF8.self)), toolCache: cache, scope: "t")
        #expect(again.request == spaced.request)
        #expect(cache.statistics.hits == 0)
        #expect(cache.statistics.entries == 2)
    }

    @Test func theLeastRecentlyUsedListGoesFirst() throws {
        let cache = ToolListCache(maxEntries: 2)
        let lists = ["a", "b", "c"].map { Self.body(tools: #"[{"type":"function","function":{"name":"\#($0)"}}]"#) }
        _ = try OpenAIChatFormat.decodeInboundRequest(lists[0], toolCache: cache, scope: "t")
        _ = try OpenAIChatFormat.decodeInboundRequest(lists[1], toolCache: cache, scope: "t")
        _ = try OpenAIChatFormat.decodeInboundRequest(lists[0], toolCache: cache, scope: "t")   // a: used last
        _ = try OpenAIChatFormat.decodeInboundRequest(lists[2], toolCache: cache, scope: "t")   // evicts b
        #expect(cache.statistics.entries == 2)
        let hitsBefore = cache.statistics.hits
        _ = try OpenAIChatFormat.decodeInboundRequest(lists[0], toolCache: cache, scope: "t")
        _ = try OpenAIChatFormat.decodeInboundRequest(lists[2], toolCache: cache, scope: "t")
        #expect(cache.statistics.hits == hitsBefore + 2)
        _ = try OpenAIChatFormat.decodeInboundRequest(lists[1], toolCache: cache, scope: "t")
        #expect(cache.statistics.hits == hitsBefore + 2)
    }

    /// Each entry counts its bytes twice (key and schemas) against the byte bound; a list longer than an entry may be
    /// is decoded every time and never kept.
    @Test func theByteBoundsHold() throws {
        func tools(_ name: String) -> String { #"[{"type":"function","function":{"name":"\#(name)","parameters":{"type":"object"}}}]"# }
        let size = tools("a").utf8.count
        let cache = ToolListCache(maxEntries: 100, maxBytes: 2 * size * 2, maxEntryBytes: size)
        for name in ["a", "b", "c"] {
            _ = try OpenAIChatFormat.decodeInboundRequest(Self.body(tools: tools(name)), toolCache: cache, scope: "t")
        }
        #expect(cache.statistics.entries == 2)
        #expect(cache.statistics.bytes == 4 * size)
        let longer = #"[{"type":"function","function":{"name":"long","parameters":{"type":"object"}}}]"#
        _ = try OpenAIChatFormat.decodeInboundRequest(Self.body(tools: longer), toolCache: cache, scope: "t")
        _ = try OpenAIChatFormat.decodeInboundRequest(Self.body(tools: longer), toolCache: cache, scope: "t")
        #expect(cache.statistics.entries == 2)
        #expect(cache.statistics.misses == 3)   // lists longer than an entry are not even looked up
    }

    /// Many tasks decoding the same and different lists through one cache get what a fresh decode gives: with room
    /// for every list (then later rounds hit), and with room for two of the five (then entries are evicted all along;
    /// whether any lookup hits depends on how the tasks interleave).
    @Test(arguments: [8, 2])
    func concurrentDecodesAgree(maxEntries: Int) async throws {
        let cache = ToolListCache(maxEntries: maxEntries)
        let bodies = (0..<5).map { Self.body(tools: #"[{"type":"function","function":{"name":"t\#($0)","parameters":{"type":"object"}}}]"#) }
        let expected = try bodies.map { try OpenAIChatFormat.decodeInboundRequest($0) }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        let i = (task + round) % bodies.count
                        guard try OpenAIChatFormat.decodeInboundRequest(bodies[i], toolCache: cache, scope: "t") == expected[i] else { return false }
                    }
                    return true
                }
            }
            for try await agreed in group { #expect(agreed) }
        }
        let stats = cache.statistics
        #expect(stats.entries <= min(maxEntries, bodies.count))
        #expect(stats.hits + stats.misses == 8 * 200)
        if maxEntries >= bodies.count { #expect(stats.misses <= 8 * bodies.count) }
    }

    /// A kept list is recognised at the start of the bytes ahead of the cursor, before they are read: the bytes of a
    /// valid array decide where it ends, so what follows the list does not matter, and a list that differs anywhere,
    /// or another scope's, is not taken. Lists shorter than the key's prefix are found only by their exact bytes.
    @Test func aKeptListIsRecognisedAtTheStartOfTheBytesAhead() throws {
        let cache = ToolListCache()
        let list = Array(Self.threeTools.utf8)
        let tools = try OpenAIChatFormat.decodeInboundRequest(Self.body(tools: Self.threeTools)).request.tools
        cache.remember(tools, decodedFrom: list, scope: "t")
        func ahead(_ bytes: [UInt8], scope: String = "t") -> Int? {
            bytes.withUnsafeBufferPointer { cache.tools(atStartOf: $0, scope: scope)?.length }
        }
        #expect(ahead(list + Array(#","stream":true}"#.utf8)) == list.count)
        #expect(ahead(list) == list.count)
        #expect(ahead(list, scope: "other") == nil)
        var changed = list
        changed[list.count - 10] = UInt8(ascii: "x")
        #expect(ahead(changed + Array("}".utf8)) == nil)
        #expect(ahead(Array(list.dropLast())) == nil)
        #expect(cache.statistics.hits == 2)
        let short = Array(#"[{"type":"function","function":{"name":"s"}}]"#.utf8)
        cache.remember(tools, decodedFrom: short, scope: "t")
        #expect(ahead(short + Array(String(repeating: " ", count: 80).utf8)) == nil)
        #expect(short.withUnsafeBufferPointer { cache.tools(for: $0, scope: "t") } != nil)
    }
}
