#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// `/v1/chat/completions` with `stream: true`: `data:` chunks until `data: [DONE]`. An error
/// object in the stream (`{"error":{…}}`, a failure after the answer started) is thrown as the
/// matching `SkillGateClientError`.
struct ChunkDecoding: StreamDecoding {
    private var done = false

    mutating func decode(_ sse: ServerSentEvent) throws -> ChatCompletionChunk? {
        guard !done else { return nil }
        if sse.data == "[DONE]" {
            done = true
            return nil
        }
        let data = Data(sse.data.utf8)
        if sse.data.contains(#""error""#), let failure = try? JSONDecoder().decode(APIErrorBody.self, from: data) {
            throw ErrorMapping.error(streamed: failure.error)
        }
        do {
            return try JSONDecoder().decode(ChatCompletionChunk.self, from: data)
        } catch let error as DecodingError {
            throw SkillGateClientError.malformedResponse("a chunk of the stream does not fit the chat.completion.chunk shape (\(error.shortDescription))")
        }
    }

    func finish() throws {
        guard done else {
            throw SkillGateClientError.malformedResponse(
                "the stream ended before data: [DONE] (the gateway stopped or the connection was cut; its log says which)")
        }
    }
}
