import Testing
import SkillGateTestSupport
import SkillGateCore
import SkillGateProviders

/// Replays an `*-upstream` fuzzing target's crasher: the first byte picks the non-streamed response
/// parser, the stream translator (the same events or error whole, split where the fuzzer split, and
/// byte by byte, but for the salt of a call id the Gemini translator made) or the error parser (which never shows the
/// API key).
enum UpstreamFuzzReplay {
    enum Outcome: Equatable {
        case events([ChatStreamEvent])
        case failed(String)
    }

    static let deployment = Deployment(providerId: "fuzz", model: "m", baseURL: "http://127.0.0.1:9", auth: .bearer, apiKey: "sk-fuzz-secret")

    static func check(_ format: some WireFormat, _ data: [UInt8]) {
        guard let selector = data.first else { return }
        let body = Array(data.dropFirst())
        switch selector % 3 {
        case 0:
            _ = try? format.parseResponse(body, deployment: deployment)
        case 1:
            let whole = translate(format, [body])
            let (a, b) = FuzzCrashers.cuts(body)
            #expect(translate(format, [Array(body[..<a]), Array(body[a..<b]), Array(body[b...])]) == whole)
            #expect(translate(format, body.map { [$0] }) == whole)
        default:
            let status = 400 + Int(body.first ?? 0) % 200
            let retryAfter = String(decoding: body.prefix(12), as: UTF8.self)
            let error = format.parseError(status: status, headers: ["retry-after": retryAfter], body: body, deployment: deployment)
            #expect(!error.description.contains("sk-fuzz-secret"))
        }
    }

    static func translate(_ format: some WireFormat, _ chunks: [[UInt8]]) -> Outcome {
        var translator = format.makeStreamTranslator(deployment: deployment)
        var events: [ChatStreamEvent] = []
        do {
            for chunk in chunks { events += try translator.feed(chunk) }
            events += try translator.finish()
        } catch {
            return .failed(String(describing: error))
        }
        return .events(events.map(withoutCallIdSalt))
    }

    /// A call id the Gemini translator made for a call that came without one (`call_gemini<salt>_<ordinal>`) holds a
    /// salt counted per response, so two translations of one stream differ there by design (as in the fuzzing
    /// target's `UpstreamTarget.withoutCallIdSalt`, which this package cannot import).
    static func withoutCallIdSalt(_ event: ChatStreamEvent) -> ChatStreamEvent {
        guard case .toolCallStart(let ordinal, let id, let name) = event, id.hasPrefix("call_gemini"),
              let ordinalPart = id.split(separator: "_").last else { return event }
        return .toolCallStart(ordinal: ordinal, id: "call_gemini_" + ordinalPart, name: name)
    }
}
