import SkillGateCore
import SkillGateHTTP

/// OpenAI's own count for a deployment of its Chat Completions format (decision 0136): the Responses API's
/// `POST {base}/responses/input_tokens`, exact for OpenAI's models and free. Only OpenAI's own API has it; an
/// OpenAI-compatible API (Groq, vLLM, Ollama, ...) does not, so it is asked only when the deployment says it counts (the
/// provider's `count_tokens`, which `Providers/openai.json` sets).
extension OpenAIChatFormat {
    /// The count request: the conversation, tools and output format as a Responses body
    /// (`OpenAIResponsesCountBody`), posted with the deployment's key and headers; nil when the deployment does not count.
    public func makeCountTokensRequest(_ request: ChatRequest, deployment: Deployment) throws -> HTTPRequest? {
        guard deployment.countsInputTokens else { return nil }
        let model = deployment.model.isEmpty ? request.model : deployment.model
        return HTTPRequest(url: deployment.baseURL + "/responses/input_tokens", headers: deployment.requestHeaders(streaming: false),
                           body: OpenAIResponsesCountBody.bytes(request, model: model), timeouts: deployment.timeouts)
    }

    /// `{"object": "response.input_tokens", "input_tokens": N}`.
    public func parseCountTokens(_ body: [UInt8]) -> Int? {
        guard let count = (try? JSONValue.parse(body))?["input_tokens"]?.intValue, count >= 0 else { return nil }
        return count
    }
}
