import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

extension GatewayHandler {
    /// `POST /v1/responses/input_tokens` (the OpenAI SDKs' `responses.input_tokens.count`; decision 0136):
    /// `{"object": "response.input_tokens", "input_tokens": N}` for a Responses request, counted as
    /// `/v1/messages/count_tokens` counts (`inputTokens(of:for:_:_:)`: the provider's count where the deployment has one,
    /// else the estimate; never charged). The body is read as a `/v1/responses` body is (members only a create uses,
    /// such as `max_output_tokens` or `stream`, change nothing), and `previous_response_id` counts the stored conversation
    /// it continues, as `/v1/responses` would send it. Errors in the Responses API's shape.
    func countResponsesInputTokens(_ request: HTTPServerRequest, _ ctx: inout RequestContext) async {
        let surface = ResponsesSurface()
        do {
            let client = try authentication.authenticate(request)
            ctx.log.tokenName = client.name
            try client.requireChat()
            let inbound = try OpenAIResponsesFormat.decodeInboundRequest(request.body)
            let decoded = SurfaceRequest(chat: inbound.request, stream: false, includeUsage: false, details: inbound)
            let resolved = try await surface.resolve(decoded, for: client, with: answering)
            let (tokens, source) = try await inputTokens(of: resolved.chat, for: client, request.headers, &ctx)
            respondCount(["object": "response.input_tokens", "input_tokens": .int(tokens)], source: source, &ctx)
        } catch {
            fail(GatewayError.from(error), surface, &ctx)
        }
    }
}
