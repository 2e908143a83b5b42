import SkillGateCore

/// The sampling controls of a Chat Completions body beyond `temperature` and `top_p` (decision 0094): `seed`,
/// `frequency_penalty`, `presence_penalty` and `logit_bias` are carried in the wire-neutral request (and sent on to the
/// providers that have them); `logprobs` and `top_logprobs` ask for something SkillGate's answers do not carry, so they
/// are refused rather than silently ignored.
extension OpenAIChatFormat {
    /// Reads the members into `request`, or throws a 400 naming the member.
    static func decodeSamplingControls(_ fields: OpenAIChatInboundFields, into request: inout ChatRequest) throws {
        request.frequencyPenalty = try InboundField.optionalDouble(fields[.frequencyPenalty], at: "frequency_penalty")
        request.presencePenalty = try InboundField.optionalDouble(fields[.presencePenalty], at: "presence_penalty")
        request.seed = try InboundField.optionalInt(fields[.seed], at: "seed")
        request.logitBias = try decodeLogitBias(fields[.logitBias])
        if try InboundField.optionalBool(fields[.logprobs], at: "logprobs") == true {
            throw GatewayError.invalidRequest(
                "SkillGate does not return token log probabilities; remove `logprobs` (or set it to false)", param: "logprobs")
        }
        if let top = try InboundField.optionalInt(fields[.topLogprobs], at: "top_logprobs"), top != 0 {
            throw GatewayError.invalidRequest(
                "SkillGate does not return token log probabilities; remove `top_logprobs` (or set it to 0)", param: "top_logprobs")
        }
    }

    /// `logit_bias`: an object whose keys are token ids (decimal digits) and whose values are numbers; `nil` for an
    /// absent, null or empty one. The values' range (OpenAI's is -100 to 100) is the provider's to check, as for
    /// `temperature`.
    private static func decodeLogitBias(_ value: JSONValue?) throws -> JSONValue? {
        switch value {
        case nil, .null?: return nil
        case .object(let object)?:
            guard !object.isEmpty else { return nil }
            for member in object {
                let key = member.key
                guard !key.isEmpty, key.utf8.count <= 10, key.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                    throw GatewayError.invalidRequest(
                        "`logit_bias` maps token ids to biases, like {\"50256\": -100}, but the key \"\(InboundField.shown(key))\" is not a token id; use the ids of the model's tokenizer",
                        param: "logit_bias")
                }
                guard member.value.doubleValue != nil else {
                    throw InboundField.wrongType("logit_bias.\(key)", expected: "a number (a bias from -100 to 100)", got: member.value)
                }
            }
            return value
        case let other: throw InboundField.wrongType("logit_bias", expected: "an object of token ids to biases, like {\"50256\": -100}", got: other)
        }
    }
}
