import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateProviders
import SkillGateState

/// The Responses API's memory: answers kept for `previous_response_id`, per client token, for
/// `responses.retention_hours` (decision 0028). Reads and writes are single rows in the state store
/// (SQLite, or PostgreSQL with `state.postgres_url`), done on the request's own path so that a
/// client chaining on an id the moment it arrives finds it.
struct ResponseArchive: Sendable {
    let store: any ResponseStore
    /// How long a response can be continued; zero keeps none.
    let retention: Double
    /// The wall clock (tests pass their own).
    let now: @Sendable () -> Date
    /// Reports a response that could not be saved (the answer itself still goes out).
    let warn: @Sendable (String) -> Void

    /// Whether responses are kept at all.
    var isEnabled: Bool { retention > 0 }

    /// Keeps `conversation` (the input and the answer) as response `id` of token `tokenId`.
    func save(id: String, tokenId: String, conversation: [Message]) {
        let created = now()
        let record = StoredResponse(id: id, tokenId: tokenId, createdAt: created, expiresAt: created.addingTimeInterval(retention * 3600),
                                    conversation: OpenAIResponsesFormat.conversationItems(conversation).serialized())
        do { try store.saveResponse(record, now: created) } catch {
            warn("response \(id) could not be stored (\(error)); a later previous_response_id naming it gets a 404")
        }
    }

    /// The conversation of response `id` of token `tokenId`; a 404 in the Responses shape when it is
    /// unknown, expired, or another token's (which of the three is not told, so ids of other tokens
    /// cannot be probed).
    func conversation(id: String, tokenId: String) throws -> [Message] {
        let found: StoredResponse?
        do { found = try store.storedResponse(id: id, tokenId: tokenId, now: now()) } catch {
            throw GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503,
                               message: "SkillGate cannot read its state database to continue response '\(id)'; retry in a few seconds (the operator should check state_dir or state.postgres_url)",
                               retryAfter: 2)
        }
        guard let found else {
            var error = GatewayError(domain: .caller, kind: .notFound, status: 404,
                                     message: "previous response '\(id)' was not found for this token: it is unknown, expired (responses are kept \(Self.hours(retention)) h, `responses.retention_hours`), was created with another token, or was sent with store: false; send the whole conversation in `input` instead")
            error.param = "previous_response_id"
            throw error
        }
        let items: [JSONValue]
        do { items = try JSONValue.parse(found.conversation).arrayValue ?? [] } catch {
            throw GatewayError.internalError("stored response '\(id)' is unreadable (\(error)); send the whole conversation in `input` instead")
        }
        return try OpenAIResponsesFormat.conversation(fromItems: items)
    }

    private static func hours(_ h: Double) -> String {
        h == h.rounded() ? String(Int(h)) : String(h)
    }
}
