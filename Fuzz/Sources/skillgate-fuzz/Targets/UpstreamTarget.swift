import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// One provider's upstream decoders, fuzzed by `UpstreamTarget`.
protocol Upstream {
    associatedtype Format: WireFormat
    static var format: Format { get }
    /// The fixture folder (`openai`, `anthropic`, `gemini`).
    static var folder: String { get }
}

enum OpenAIUpstream: Upstream {
    static var format: OpenAIChatFormat { OpenAIChatFormat() }
    static let folder = "openai"
}

enum AnthropicUpstream: Upstream {
    static var format: AnthropicMessagesFormat { AnthropicMessagesFormat() }
    static let folder = "anthropic"
}

enum GeminiUpstream: Upstream {
    static var format: GeminiFormat { GeminiFormat() }
    static let folder = "gemini"
}

/// A provider's answers, which are untrusted bytes too: the first byte picks the non-streamed
/// response parser (and the token-count answer's), the stream translator or the error parser; the rest is the body. Invariant:
/// the stream translator gives the same events (or the same error) whole, split at two points
/// chosen from the input, and one byte at a time (short inputs); what every surface then sends a
/// client for those events is JSON (`ClientEncodings`).
enum UpstreamTarget<P: Upstream>: FuzzTarget {
    static var deployment: Deployment {
        Deployment(providerId: "fuzz", model: "m", baseURL: "http://127.0.0.1:9", auth: .bearer, apiKey: "sk-fuzz-secret")
    }

    static func run(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let body = Array(data.dropFirst())
        switch selector % 3 {
        case 0:
            if let response = try? P.format.parseResponse(body, deployment: deployment) { _ = response.content.count }
            // The same bytes as a token-count answer (decision 0136): a count is never negative.
            if let count = P.format.parseCountTokens(body) { invariant(count >= 0, "a negative token count: \(count)") }
        case 1:
            let whole = translate([body])
            if case .events(let events) = whole { ClientEncodings.check(events) }
            let (a, b) = SSETarget.cuts(body)
            let split = translate([Array(body[..<a]), Array(body[a..<b]), Array(body[b...])])
            invariant(split == whole, "split at \(a),\(b): \(split) != \(whole)")
            if body.count <= 256 {
                let bytewise = translate(body.map { [$0] })
                invariant(bytewise == whole, "byte by byte: \(bytewise) != \(whole)")
            }
        default:
            let status = 400 + Int(body.first ?? 0) % 200
            let retryAfter = String(decoding: body.prefix(12), as: UTF8.self)
            // As a client gets it: `HTTPLLMClient` takes the key out of every error (decision 0075); the formats may
            // quote the upstream's text as it came.
            let error = P.format.parseError(status: status, headers: ["retry-after": retryAfter], body: body, deployment: deployment)
                .redacting(deployment.apiKey)
            let texts = [error.description, error.param ?? "", error.upstreamCode ?? ""]
            invariant(!texts.contains { $0.contains("sk-fuzz-secret") }, "the API key leaked into \(error)")
        }
    }

    enum Outcome: Equatable {
        case events([ChatStreamEvent])
        case failed(String)
    }

    static func translate(_ chunks: [[UInt8]]) -> Outcome {
        var translator = P.format.makeStreamTranslator(deployment: deployment)
        var events: [ChatStreamEvent] = []
        do {
            for chunk in chunks { events += try translator.feed(chunk) }
            events += try translator.finish()
        } catch {
            return .failed(String(describing: error))
        }
        var accumulator = ChatResponseAccumulator()
        events.forEach { accumulator.apply($0) }
        return .events(events.map(withoutCallIdSalt))
    }

    /// A call id the Gemini translator made for a call that came without one (`call_gemini<salt>_<ordinal>`) holds a
    /// salt counted per response, so two translations of one stream differ there by design; the rest must not.
    static func withoutCallIdSalt(_ event: ChatStreamEvent) -> ChatStreamEvent {
        guard case .toolCallStart(let ordinal, let id, let name) = event, id.hasPrefix("call_gemini"),
              let ordinalPart = id.split(separator: "_").last else { return event }
        return .toolCallStart(ordinal: ordinal, id: "call_gemini_" + ordinalPart, name: name)
    }

    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for document in fixtures.documents(P.folder) where !document.isEmpty {
            out.append([0] + document)
            out.append([2] + document)
        }
        for body in fixtures.streams(P.folder) { out.append([1] + body) }
        return out
    }
}
