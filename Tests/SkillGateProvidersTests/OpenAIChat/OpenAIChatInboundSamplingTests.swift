import Testing
import SkillGateCore
@testable import SkillGateProviders

/// The sampling controls beyond `temperature` and `top_p` on the Chat Completions surface (decision 0094): carried
/// into the wire-neutral request and on to an OpenAI-format upstream, checked for their type, and `logprobs` refused
/// rather than silently dropped.
@Suite struct OpenAIChatInboundSamplingTests {
    static func decode(_ extra: String) throws -> ChatRequest {
        let body = #"{"model":"m","messages":[{"role":"user","content":"hi"}]"# + extra + "}"
        return try OpenAIChatFormat.decodeInboundRequest(Array(body.utf8)).request
    }

    @Test func theControlsAreReadAndSentUpstream() throws {
        let r = try Self.decode(#","seed":-42,"frequency_penalty":0.5,"presence_penalty":-1.5,"logit_bias":{"50256":-100,"15":2.5},"logprobs":false,"top_logprobs":0"#)
        #expect(r.seed == -42)
        #expect(r.frequencyPenalty == 0.5)
        #expect(r.presencePenalty == -1.5)
        #expect(r.logitBias == ["50256": -100, "15": 2.5])
        let upstream = try JSONValue.parse(OpenAIChatFormat().requestBytes(r, model: "up", stream: false))
        #expect(upstream["seed"] == -42)
        #expect(upstream["frequency_penalty"]?.doubleValue == 0.5)
        #expect(upstream["presence_penalty"]?.doubleValue == -1.5)
        #expect(upstream["logit_bias"] == ["50256": -100, "15": 2.5])
        #expect(upstream["logprobs"] == nil && upstream["top_logprobs"] == nil)
    }

    /// Absent, null and an empty `logit_bias` send nothing upstream.
    @Test(arguments: ["", #","seed":null,"frequency_penalty":null,"presence_penalty":null,"logit_bias":null"#, #","logit_bias":{}"#])
    func absentControlsSendNothing(_ extra: String) throws {
        let r = try Self.decode(extra)
        #expect(r.seed == nil && r.frequencyPenalty == nil && r.presencePenalty == nil && r.logitBias == nil)
        let upstream = String(decoding: OpenAIChatFormat().requestBytes(r, model: "up", stream: false), as: UTF8.self)
        for key in ["seed", "penalty", "logit_bias"] { #expect(!upstream.contains(key)) }
    }

    @Test(arguments: [
        (#","seed":"7""#, "seed", "must be an integer"),
        (#","seed":1.5"#, "seed", "must be an integer that fits in 64 bits, but it is 1.5"),
        (#","seed":99999999999999999999"#, "seed", "fits in 64 bits"),
        (#","frequency_penalty":"high""#, "frequency_penalty", "must be a number"),
        (#","presence_penalty":true"#, "presence_penalty", "must be a number"),
        // JSON has no infinity: passed on, these would reach the provider as null.
        (#","frequency_penalty":1e400"#, "frequency_penalty", "is 1e400, which is beyond the range of a number"),
        (#","temperature":-1.8e309"#, "temperature", "is -1.8e309, which is beyond the range of a number"),
        (#","top_p":9e999"#, "top_p", "beyond the range"),
        (#","logit_bias":[1]"#, "logit_bias", "an object of token ids to biases"),
        (#","logit_bias":{"hello":1}"#, "logit_bias", "\"hello\" is not a token id"),
        (#","logit_bias":{"":1}"#, "logit_bias", "is not a token id"),
        (#","logit_bias":{"12345678901":1}"#, "logit_bias", "is not a token id"),
        (#","logit_bias":{"50256":"ban"}"#, "logit_bias.50256", "must be a number"),
        (#","logprobs":true"#, "logprobs", "does not return token log probabilities; remove `logprobs`"),
        (#","logprobs":"yes""#, "logprobs", "must be true or false"),
        (#","top_logprobs":5"#, "top_logprobs", "remove `top_logprobs`"),
        (#","top_logprobs":"5""#, "top_logprobs", "must be an integer"),
    ])
    func badControlsAreRefusedNamingTheMember(extra: String, param: String, says: String) throws {
        let e = try #require(OpenAIChatTestSupport.gatewayError { _ = try Self.decode(extra) })
        #expect(e.kind == .invalidRequest)
        #expect(e.status == 400)
        #expect(e.param == param)
        #expect(e.message.contains(says), "\(e.message)")
    }
}
