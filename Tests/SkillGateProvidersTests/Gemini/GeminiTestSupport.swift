import SkillGateCore
@testable import SkillGateProviders

/// Shared helpers of the Gemini tests.
enum GeminiTest {
    static let deployment = Deployment(providerId: "gemini", model: "gemini-2.5-flash",
                                       baseURL: "https://generativelanguage.googleapis.com/v1beta",
                                       auth: .xGoogApiKey, apiKey: "AIza-test-secret-key-1234")

    static func translator() -> GeminiStreamTranslator {
        GeminiFormat().makeStreamTranslator(deployment: deployment)
    }

    /// The raw SSE body of a streaming fixture: `.chunks.txt` files are rebuilt into `data:` events,
    /// raw captures are used as they are.
    static func streamBody(_ name: String) throws -> [UInt8] {
        name.hasSuffix(".chunks.txt") ? try Fixtures.sseFromChunks("gemini/\(name)") : try Fixtures.bytes("gemini/\(name)")
    }

    /// Feeds `body` whole; returns the events or the error thrown.
    static func run(_ body: [UInt8], byteByByte: Bool) -> Result<[ChatStreamEvent], GatewayError> {
        do {
            let events = byteByByte ? try StreamFeeding.byteByByte(translator(), body)
                                    : try StreamFeeding.whole(translator(), body)
            return .success(events)
        } catch let error as GatewayError {
            return .failure(error)
        } catch {
            return .failure(.internalError("unexpected error type: \(error)"))
        }
    }

    /// The thinking blocks of a response.
    static func thinking(_ response: ChatResponse) -> [Thinking] {
        response.content.compactMap { if case .thinking(let t) = $0 { return t } else { return nil } }
    }
}
