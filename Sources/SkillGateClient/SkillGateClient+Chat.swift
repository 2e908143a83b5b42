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
    /// `POST /v1/chat/completions`: the whole answer. `request.stream` is ignored.
    ///
    /// - Throws: `SkillGateClientError`; `CancellationError` when the calling task is cancelled.
    public func chat(_ request: ChatCompletionRequest) async throws -> ChatCompletion {
        var body = request
        body.stream = nil
        body.streamOptions = nil
        let response = try await transport.send(try self.request("v1/chat/completions", body: body, accept: "application/json"))
        guard (200..<300).contains(response.status) else {
            throw ErrorMapping.error(status: response.status, headers: response.headers, body: response.body)
        }
        do {
            return try JSONDecoder().decode(ChatCompletion.self, from: Data(response.body))
        } catch let error as DecodingError {
            throw SkillGateClientError.malformedResponse(
                "the answer is not a chat.completion (\(error.shortDescription)): \(ErrorMapping.snippet(response.body, status: response.status))")
        }
    }

    /// `POST /v1/chat/completions` with `stream: true`: the answer's chunks as they arrive, in
    /// order. Set `request.streamOptions` to `.init(includeUsage: true)` for a last chunk with the usage.
    ///
    /// The stream throws `SkillGateClientError` (an HTTP error before the answer started, or an
    /// error the gateway sent inside the stream). Cancelling the consuming task cancels the request.
    public func chatStream(_ request: ChatCompletionRequest) -> AsyncThrowingStream<ChatCompletionChunk, any Error> {
        var body = request
        body.stream = true
        do {
            return decodedStream(try self.request("v1/chat/completions", body: body, accept: "text/event-stream"), ChunkDecoding())
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }
}
