import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// Shared helpers for the openai-chat tests.
enum OpenAIChatTestSupport {
    static let deployment = Deployment(providerId: "openai", model: "gpt-4o-mini", baseURL: "http://127.0.0.1:9/v1",
                                       auth: .bearer, apiKey: "sk-test-secret-key-0123456789")

    static func translator(provider: String = "openai") -> OpenAIChatStreamTranslator {
        OpenAIChatStreamTranslator(provider: provider)
    }

    /// A fixture's SSE body; vercel `*.chunks.txt` files are re-framed with `data: [DONE]`.
    static func streamBody(_ file: String, done: Bool = true) throws -> [UInt8] {
        file.hasSuffix(".chunks.txt")
            ? try Fixtures.sseFromChunks("openai/\(file)", terminator: done ? "[DONE]" : nil)
            : try Fixtures.bytes("openai/\(file)")
    }

    /// `value` with object members sorted by key at every level, for order-insensitive comparison.
    static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let o):
            let members = o.members.sorted { $0.key < $1.key }.map { JSONObject.Member(key: $0.key, value: canonical($0.value)) }
            return .object(JSONObject(members))
        case .array(let a): return .array(a.map(canonical))
        default: return value
        }
    }

    /// Runs `body` and returns the `GatewayError` it threw (nil when it threw nothing or something else).
    static func gatewayError(_ body: () throws -> Void) -> GatewayError? {
        do { try body() } catch let e as GatewayError { return e } catch { return nil }
        return nil
    }
}
