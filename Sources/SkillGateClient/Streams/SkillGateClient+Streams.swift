#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch

extension SkillGateClient {
    /// Sends `request` from a task of its own and hands the decoded events to the returned stream.
    /// When the consumer stops (cancelled, or leaves the loop) the stream ends, the task is
    /// cancelled, and with it the HTTP request: the connection closes and the gateway stops the run.
    func decodedStream<Decoding: StreamDecoding>(_ request: TransportRequest, _ decoding: Decoding)
        -> AsyncThrowingStream<Decoding.Element, any Error>
    {
        let transport = self.transport
        let (stream, continuation) = AsyncThrowingStream<Decoding.Element, any Error>.makeStream()
        let task = Task {
            do {
                var decoding = decoding
                let response = try await transport.stream(request) { event in
                    if let element = try decoding.decode(event) { continuation.yield(element) }
                }
                guard response.isEventStream else { throw Self.failure(response, expecting: "an event stream") }
                try decoding.finish()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The error for a response that is not the expected success: the mapped HTTP error, or — for
    /// a 2xx of the wrong kind — `malformedResponse`.
    static func failure(_ response: TransportResponse, expecting what: String) -> SkillGateClientError {
        guard (200..<300).contains(response.status) else {
            return ErrorMapping.error(status: response.status, headers: response.headers, body: response.body)
        }
        let type = response.headers["content-type"] ?? "no content type"
        return .malformedResponse("expected \(what), got HTTP \(response.status) (\(type)): \(ErrorMapping.snippet(response.body, status: response.status))")
    }
}
