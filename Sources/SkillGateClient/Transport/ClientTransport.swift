#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// How requests reach the gateway: URLSession on Apple platforms, SkillGateHTTP (libcurl) on Linux.
/// Both hand the same values to the shared decoding in `SkillGateClient`.
protocol ClientTransport: Sendable {
    /// Sends `request` and returns the whole response, whatever its status.
    ///
    /// - Throws: `SkillGateClientError.network` when no response arrived; `CancellationError` when
    ///   the calling task was cancelled.
    func send(_ request: TransportRequest) async throws -> TransportResponse

    /// Sends `request`. When the response `isEventStream`, each server-sent event of its body is
    /// handed to `onEvent` as it arrives and the response is returned, with an empty body, once
    /// the body ended; any other response is returned with its body read (up to 64 KiB).
    /// Cancelling the calling task aborts the transfer and closes the connection.
    ///
    /// - Throws: what `send` throws, and whatever `onEvent` throws (which ends the transfer).
    func stream(_ request: TransportRequest, onEvent: (ServerSentEvent) throws -> Void) async throws -> TransportResponse
}

/// A POST to the gateway.
struct TransportRequest: Sendable {
    var url: URL
    var headers: [(String, String)]
    var body: [UInt8]
    var connectTimeout: Duration
    var idleTimeout: Duration
}

/// A response: the body is empty when it was streamed as events.
struct TransportResponse: Sendable {
    var status: Int
    /// Header names in lower case.
    var headers: [String: String]
    var body: [UInt8]

    /// Whether the body is decoded as events: a 2xx answer of type `text/event-stream`.
    var isEventStream: Bool { Self.isEventStream(status: status, contentType: headers["content-type"]) }

    static func isEventStream(status: Int, contentType: String?) -> Bool {
        (200..<300).contains(status) && contentType?.lowercased().hasPrefix("text/event-stream") == true
    }

    /// How much of a body that is not an event stream is read.
    static let bodyLimit = 64 * 1024
}

/// One event of a `text/event-stream` body.
struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field; nil when absent.
    var event: String?
    /// The `data:` lines joined with "\n".
    var data: String
}
