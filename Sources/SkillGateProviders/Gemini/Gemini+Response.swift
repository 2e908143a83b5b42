import SkillGateCore

extension GeminiFormat {
    /// Parses a non-streamed `GenerateContentResponse` body into a `ChatResponse`.
    ///
    /// Runs the body through the same chunk interpreter as the stream, so both fold to the same
    /// content (text, thinking with signatures, tool calls with synthesised ids, signatures).
    /// A prompt blocked before generation (`promptFeedback.blockReason`, no candidates) is an
    /// answer with no content and finish reason `contentFilter`, as OpenAI reports a filtered
    /// answer; an `{"error":…}` body throws the mapped `GatewayError`, and so does a failed-answer finish
    /// reason (`MALFORMED_FUNCTION_CALL`: a `GatewayError` with `failedAnswer`, decision 0117).
    public static func response(from body: [UInt8], provider: String, apiKey: String? = nil) throws -> ChatResponse {
        // `streamGenerateContent` without `alt=sse` answers a JSON array of chunks; accept it too.
        var chunks: [GeminiChunk] = []
        do {
            try body.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
                try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in
                    let isArray = try c.readArray { (c) throws(JSONSyntaxError) in chunks.append(try GeminiChunk.read(&c)) }
                    if !isArray { chunks.append(try GeminiChunk.read(&c)) }
                }
            }
        } catch {
            let what = body.allSatisfy { $0 <= 0x20 } ? "an empty body" : "a body that is not JSON (\(error))"
            throw GatewayError.upstreamProtocol(
                "Gemini (provider '\(provider)') answered with \(what) where a response was expected; "
                    + "check the provider's base URL, then retry.", provider: provider)
        }
        var interpreter = GeminiChunkInterpreter(provider: provider, apiKey: apiKey)
        var accumulator = ChatResponseAccumulator()
        for chunk in chunks {
            for event in try interpreter.apply(chunk) { accumulator.apply(event) }
        }
        if !chunks.contains(where: \.hasCandidates), !chunks.contains(where: \.hasBlockReason) {
            throw GatewayError.upstreamProtocol(
                "Gemini (provider '\(provider)') answered without candidates and without a block reason; retry the request.",
                provider: provider)
        }
        for event in try interpreter.finish(requireFinish: false) { accumulator.apply(event) }
        return accumulator.response
    }
}
