import Testing
import SkillGateCore
@testable import SkillGateServer

/// `response_cache` and `scenarios.<name>.response_cache` (decision 0140): off unless written; bad values name what to
/// write instead.
@Suite struct ResponseCacheConfigTests {
    static func config(_ extra: String, scenarios: String = #"{"chat":{},"faq":{}}"#) throws -> GatewayConfig {
        let json = try JSONValue.parse(#"{"scenarios":\#(scenarios)\#(extra)}"#)
        return try GatewayConfig(json: json, file: "skillgate.json", baseDirectory: "/tmp")
    }

    @Test func offWithoutTheSection() throws {
        let c = try Self.config("")
        #expect(!c.usesResponseCache && c.responseCacheTTL(for: c.scenarios["chat"]!) == nil)
    }

    @Test func theSectionTurnsItOnForEveryScenario() throws {
        let c = try Self.config(#","response_cache":{}"#)
        #expect(c.usesResponseCache && c.responseCache.maxBytes == 64 << 20)
        #expect(c.responseCacheTTL(for: c.scenarios["chat"]!) == 300 && c.responseCacheTTL(for: c.scenarios["faq"]!) == 300)
    }

    @Test func aScenarioTurnsItOnOrOffAndSetsItsTime() throws {
        let only = try Self.config("", scenarios: #"{"chat":{},"faq":{"response_cache":{"ttl_seconds":3600}}}"#)
        #expect(only.usesResponseCache)
        #expect(only.responseCacheTTL(for: only.scenarios["chat"]!) == nil && only.responseCacheTTL(for: only.scenarios["faq"]!) == 3600)
        let defaults = try Self.config("", scenarios: #"{"chat":{},"faq":{"response_cache":{}}}"#)
        #expect(defaults.responseCacheTTL(for: defaults.scenarios["faq"]!) == 300 && defaults.responseCache.maxBytes == 64 << 20)
        let off = try Self.config(#","response_cache":{"ttl_seconds":60,"max_mib":8}"#, scenarios: #"{"chat":{"response_cache":{"enabled":false}},"faq":{}}"#)
        #expect(off.responseCacheTTL(for: off.scenarios["chat"]!) == nil && off.responseCacheTTL(for: off.scenarios["faq"]!) == 60)
        #expect(off.responseCache.maxBytes == 8 << 20)
        let none = try Self.config(#","response_cache":{"enabled":false}"#)
        #expect(!none.usesResponseCache)
    }

    @Test(arguments: [
        (#","response_cache":{"ttl_seconds":0}"#, "$.response_cache.ttl_seconds", "from 1 to 604800"),
        (#","response_cache":{"ttl_seconds":700000}"#, "$.response_cache.ttl_seconds", "like 300"),
        (#","response_cache":{"ttl_seconds":"5m"}"#, "$.response_cache.ttl_seconds", "an integer"),
        (#","response_cache":{"max_mib":0}"#, "$.response_cache.max_mib", "from 1 to 65536"),
        (#","response_cache":{"enabled":"yes"}"#, "$.response_cache.enabled", "true or false"),
        (#","response_cache":{"ttl":60}"#, "$.response_cache.ttl", "ttl_seconds"),
        (#","response_cache":true"#, "$.response_cache", "an object"),
        (#","response_cache":{"coalesce_seconds":-1}"#, "$.response_cache.coalesce_seconds", "from 0 to 600"),
        (#","response_cache":{"coalesce_seconds":601}"#, "$.response_cache.coalesce_seconds", "like 20"),
    ])
    func aBadValueSaysWhatToWrite(_ extra: String, _ path: String, _ hint: String) {
        #expect {
            try Self.config(extra)
        } throws: { error in
            guard let e = error as? JSONShapeError else { return false }
            return e.path == path && e.message.contains(hint)
        }
    }

    /// `coalesce_seconds` (decision 0172): 0 unless written, the gateway's for a scenario that says nothing, a
    /// scenario's own otherwise; a bad value in a scenario names its path.
    @Test func coalescingIsOffUnlessWrittenAndAScenarioMaySetItsOwn() throws {
        let plain = try Self.config(#","response_cache":{}"#)
        #expect(plain.responseCacheCoalesceSeconds(for: plain.scenarios["chat"]!) == 0)
        let c = try Self.config(#","response_cache":{"coalesce_seconds":20}"#,
                                scenarios: #"{"chat":{},"faq":{"response_cache":{"coalesce_seconds":0}},"slow":{"response_cache":{"coalesce_seconds":120}}}"#)
        #expect(c.responseCacheCoalesceSeconds(for: c.scenarios["chat"]!) == 20)
        #expect(c.responseCacheCoalesceSeconds(for: c.scenarios["faq"]!) == 0 && c.responseCacheCoalesceSeconds(for: c.scenarios["slow"]!) == 120)
        #expect {
            try Self.config("", scenarios: #"{"chat":{"response_cache":{"coalesce_seconds":1e3}}}"#)
        } throws: { error in
            (error as? JSONShapeError)?.path == "$.scenarios.chat.response_cache.coalesce_seconds"
        }
    }

    @Test func theBoundIsNotPerScenario() {
        #expect {
            try Self.config("", scenarios: #"{"chat":{"response_cache":{"max_mib":8}}}"#)
        } throws: { error in
            guard let e = error as? JSONShapeError else { return false }
            return e.path == "$.scenarios.chat.response_cache.max_mib" && e.message.contains("top-level")
        }
    }
}
