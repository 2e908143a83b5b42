import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

extension GatewayHandler {
    /// `POST /v1/messages/count_tokens` (the Anthropic SDKs' `messages.count_tokens`, which Claude Code calls every turn
    /// to manage its context window; decision 0132): `{"input_tokens": N}` for a Messages request without `max_tokens`,
    /// estimated by the gateway (`ContextTokenEstimate`, which errs high), never sent to a provider, never charged.
    /// The model must be one the token and scenario may use, as for `/v1/messages`; the answer says it is an estimate in
    /// `x-skillgate-token-count: estimated`. Errors in the Anthropic shape. Like `GET /v1/models` it is logged with the
    /// token's name but is no request of a surface: no ledger row, no surface metrics (Claude Code would double a
    /// token's request count).
    func countTokens(_ request: HTTPServerRequest, _ ctx: inout RequestContext) {
        let surface = AnthropicMessagesSurface()
        do {
            let client = try authentication.authenticate(request)
            ctx.log.tokenName = client.name
            try client.requireChat()
            let counted = try AnthropicMessagesFormat.decodeCountTokensRequest(request.body)
            let scenario = try services.resolver.scenario(named: GatewayFields.once(request.headers, "x-skillgate-scenario"), scope: client.scope)
            _ = try services.resolver.plan(requested: counted.model, scenario: scenario.config, scope: client.scope)
            var headers = ResponseHeaders.common(ctx)
            headers.set("x-skillgate-token-count", "estimated")
            let body: JSONValue = ["input_tokens": .int(ContextTokenEstimate.inputTokens(of: counted))]
            ctx.responder.respond(status: 200, headers: headers, body: body.serializedBytes())
            ctx.log.status = 200
            answering.account(&ctx)
        } catch {
            fail(GatewayError.from(error), surface, &ctx)
        }
    }
}
