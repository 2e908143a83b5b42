import Foundation
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer
import Testing

/// The log line written straight to bytes is byte for byte the line the JSON tree gives, for every kind of entry.
@Suite struct RequestLogEntryWriteTests {
    static func entries() -> [RequestLogEntry] {
        var minimal = RequestLogEntry(requestId: "req_1", method: "GET", path: "/healthz", status: 200)
        minimal.time = Date(timeIntervalSince1970: 1_795_000_000.123)

        var full = RequestLogEntry(requestId: "req_2", method: "POST", path: "/v1/chat/completions", status: 200)
        (full.tokenName, full.surface, full.scenario, full.provider, full.model, full.route) = ("ios-app", "openai", "chat", "p", "p/m", "auto→light")
        (full.stream, full.totalMs, full.upstreamMs) = (true, 12.3456, 0.1)
        full.usage = Usage(inputTokens: 10, outputTokens: 20, cachedInputTokens: 4, cacheWriteTokens: 2)
        full.costUSD = 0.000123456789
        full.attempts = [.note("p/a: 429 rate_limited after 250 ms"), .attempt(AttemptRecord(deployment: "p/m", outcome: .succeeded(status: 200)))]
        full.skills = SkillDecision(declared: 3, visible: ["get_weather", "set_reminder"], serverSkills: ["notes.add"], removed: ["x"], cut: ["y"])
        full.escalations = 1
        full.agentIterations = 2
        full.skillsRun = ["notes.add"]

        var failed = RequestLogEntry(requestId: "req_\"3\"\n", method: "POST", path: "/v1/messages?x=ü漢", status: 502)
        failed.error = "upstream said \"no\"\tthen \u{1} closed"
        failed.errorKind = .upstreamTimeout
        failed.totalMs = 1_000_000_000_000_000
        failed.costUSD = 3
        failed.usage = Usage()

        var refused = RequestLogEntry(requestId: "req_4", method: "POST", path: "/v1/chat/completions", status: 429)
        refused.tokenName = "app"
        refused.totalMs = .nan
        refused.skills = SkillDecision()

        var long = RequestLogEntry(requestId: "req_5", method: "POST", path: "/mcp", status: 200)
        long.error = "method \"" + String(repeating: "é", count: 5_000) + "\" is not served here"

        var cacheHit = RequestLogEntry(requestId: "req_7", method: "POST", path: "/v1/chat/completions", status: 200)
        (cacheHit.provider, cacheHit.model, cacheHit.cache, cacheHit.cacheAgeSeconds) = ("p", "p/m", .hit, 42)
        var cacheMiss = full
        cacheMiss.cache = .miss
        var coalescedHit = cacheHit
        coalescedHit.cacheWaitMs = 1234.5678
        return [minimal, full, failed, refused, long, cacheHit, cacheMiss, coalescedHit]
    }

    @Test(arguments: entries())
    func bytesEqualTheTreesBytes(entry: RequestLogEntry) throws {
        var direct: [UInt8] = []
        entry.writeJSON(to: &direct)
        var tree: [UInt8] = []
        entry.json().write(to: &tree)
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: tree, as: UTF8.self))
        #expect(try JSONValue.parse(String(decoding: direct, as: UTF8.self)) == entry.json())
    }

    /// An error of any length is cut to `maxErrorBytes` in the line and in the console's traffic event, on a
    /// character boundary and saying how long it was (decision 0113).
    @Test func aLongErrorIsCutInTheLineAndTheTrafficEvent() throws {
        var entry = RequestLogEntry(requestId: "req_6", method: "POST", path: "/mcp", status: 200)
        entry.error = "method \"" + String(repeating: "é", count: 500_000) + "\" is not served here"
        var line: [UInt8] = []
        entry.writeJSON(to: &line)
        #expect(line.count < 4_096 + 1_024)
        let error = try #require(try JSONValue.parse(line)["error"]?.stringValue)
        #expect(error.hasPrefix("method \"éé") && error.hasSuffix("(error cut at 4096 of 1000028 bytes)"), "\(error.suffix(80))")
        let event = TrafficEvent(entry)
        #expect(event.error == error)
        // A short error is kept whole.
        entry.error = "short"
        #expect(TrafficEvent(entry).error == "short")
    }
}
