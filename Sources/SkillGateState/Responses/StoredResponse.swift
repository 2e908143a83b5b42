import FoundationEssentials
import Glibc
import Dispatch

/// A response kept for the Responses API's `previous_response_id`: the conversation up to and
/// including the answer, readable only with the token that created it and only until it expires.
public struct StoredResponse: Sendable, Hashable {
    /// `resp_…`.
    public var id: String
    /// The id of the client token that created it; no other token reads it.
    public var tokenId: String
    public var createdAt: Date
    public var expiresAt: Date
    /// The conversation as the UTF-8 bytes of its JSON text (the Responses surface's own encoding), kept as bytes
    /// from the writer to the database and back: no `String` is made of it on the way.
    public var conversation: [UInt8]
    /// The Response object the client was answered with, as the UTF-8 bytes of its JSON text, for
    /// `GET /v1/responses/{id}` (decision 0125); nil for a response stored before the gateway kept it.
    public var object: [UInt8]?
    /// Where the model's input ends in `conversation`: its first `inputEnd` bytes, closed with `]`, are the array of the
    /// items the model was given (the conversation continued, then the request's input) and the rest is the answer, for
    /// `GET /v1/responses/{id}/input_items` (decision 0127); nil for a response stored before the gateway kept it.
    public var inputEnd: Int?

    public init(id: String, tokenId: String, createdAt: Date, expiresAt: Date, conversation: [UInt8], object: [UInt8]? = nil,
                inputEnd: Int? = nil) {
        self.id = id
        self.tokenId = tokenId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.conversation = conversation
        self.object = object
        self.inputEnd = inputEnd
    }

    /// The JSON text of the array of the model's input items (`inputEnd`'s bytes of the conversation, then `]`); nil when
    /// the boundary was not kept or does not fall within the conversation.
    public var inputItemsJSON: [UInt8]? {
        guard let inputEnd, inputEnd >= 1, inputEnd <= conversation.count else { return nil }
        var json = Array(conversation[..<inputEnd])
        json.append(UInt8(ascii: "]"))
        return json
    }

    /// What the response holds against its token's `responses.max_mib_per_token`: its conversation and its object.
    public var storedBytes: Int { conversation.count + (object?.count ?? 0) }
}

/// What a store found for `GET /v1/responses/{id}`.
public enum StoredResponseObject: Sendable, Equatable {
    /// The token has no such response that has not expired (unknown, expired, or another token's).
    case notFound
    /// The response is kept for `previous_response_id`, but was stored before its object was kept.
    case keptWithoutObject
    /// The Response object's JSON bytes.
    case found([UInt8])
}

/// Where stored responses live: the SQLite state file, or PostgreSQL when several instances share
/// state (`state.postgres_url`), so a chain of responses may continue on any instance.
public protocol ResponseStore: Sendable {
    /// Saves `responses` in one transaction (replacing any with the same id), removes responses that expired before
    /// `now`, and then, for each token of the batch whose stored conversations together pass `maxBytesPerToken` bytes,
    /// removes that token's oldest responses until it is within the bound again (decision 0119). Returns how many
    /// responses were removed for the bound, by token id (empty when none was).
    @discardableResult
    func saveResponses(_ responses: [StoredResponse], now: Date, maxBytesPerToken: Int) throws -> [String: Int]

    /// The response `id` of token `tokenId` that has not expired at `now`; nil when it is unknown,
    /// expired, or another token's (the caller cannot tell which, on purpose).
    func storedResponse(id: String, tokenId: String, now: Date) throws -> StoredResponse?

    /// The Response object of response `id` of token `tokenId` that has not expired at `now`, read without its
    /// conversation (which may be megabytes).
    func storedResponseObject(id: String, tokenId: String, now: Date) throws -> StoredResponseObject

    /// Removes the response `id` of token `tokenId` (`DELETE /v1/responses/{id}`). Returns whether there was one;
    /// another token's response is left alone and answered false, as an unknown one is.
    func deleteResponse(id: String, tokenId: String) throws -> Bool
}

extension ResponseStore {
    /// Saves `responses` with no bound per token (tests of expiry and of reading back).
    public func saveResponses(_ responses: [StoredResponse], now: Date) throws {
        try saveResponses(responses, now: now, maxBytesPerToken: .max)
    }
}
