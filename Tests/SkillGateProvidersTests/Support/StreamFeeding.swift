import SkillGateCore
@testable import SkillGateProviders

/// Feeds a stream translator a whole body, or one byte at a time: both must give the same events.
enum StreamFeeding {
    /// Events from feeding `body` in one call.
    static func whole<T: WireStreamTranslator>(_ translator: T, _ body: [UInt8]) throws -> [ChatStreamEvent] {
        var t = translator
        return try t.feed(body) + t.finish()
    }

    /// Events from feeding `body` one byte per call.
    static func byteByByte<T: WireStreamTranslator>(_ translator: T, _ body: [UInt8]) throws -> [ChatStreamEvent] {
        var t = translator
        var events: [ChatStreamEvent] = []
        for b in body { events += try t.feed([b]) }
        return events + (try t.finish())
    }

    /// Folds events into a response.
    static func response(_ events: [ChatStreamEvent]) -> ChatResponse {
        var acc = ChatResponseAccumulator()
        events.forEach { acc.apply($0) }
        return acc.response
    }
}
