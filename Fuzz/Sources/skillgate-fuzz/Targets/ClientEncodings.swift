import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// What clients are sent for a translated upstream answer, by every surface: the Chat Completions, Anthropic Messages
/// and Responses stream encoders and whole-answer writers write straight as bytes (decisions 0039, 0065, 0068), so the
/// fuzzed answers' texts, ids, names and arguments go through them too. Invariant: every event's data (but `[DONE]`)
/// and every whole answer is JSON.
enum ClientEncodings {
    static func check(_ events: [ChatStreamEvent]) {
        var chat = OpenAIChatStreamEncoder(id: "chatcmpl-fuzz", model: "m", created: 1, includeUsage: true)
        var anthropic = AnthropicMessagesSSEEncoder(fallbackId: "msg_fuzz", fallbackModel: "m")
        let object = ResponsesObject(id: "resp_fuzz", createdAt: 1, model: "m", echo: ResponsesEcho())
        var responses = ResponsesStreamEncoder(object: object)
        var streams: [(String, [UInt8])] = [("chat", []), ("anthropic", []), ("responses", [])]
        for event in events {
            streams[0].1 += chat.encode(event)
            streams[1].1 += anthropic.encode(event)
            streams[2].1 += responses.encode(event)
        }
        streams[0].1 += chat.finish()
        streams[1].1 += anthropic.finish()
        streams[2].1 += responses.finish()
        for (surface, bytes) in streams {
            var decoder = SSEDecoder()
            for frame in decoder.feed(bytes) + decoder.finish() where frame.data != "[DONE]" {
                invariant((try? JSONValue.parse(frame.data)) != nil, "the \(surface) stream wrote an event that is not JSON: \(frame.data)")
            }
        }
        var accumulator = ChatResponseAccumulator()
        events.forEach { accumulator.apply($0) }
        let response = accumulator.response
        let answers: [(String, [UInt8])] = [
            ("chat", OpenAIChatFormat.encodeInboundResponseBytes(response, id: "chatcmpl-fuzz", model: "m", created: 1)),
            ("anthropic", AnthropicMessagesFormat.inboundResponseBytes(response, fallbackId: "msg_fuzz")),
            ("responses", OpenAIResponsesFormat.responseBody(response, object: object)),
        ]
        for (surface, bytes) in answers {
            invariant((try? JSONValue.parse(bytes)) != nil, "the \(surface) answer is not JSON: \(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
