import SkillGateCore
import SkillGateHTTP

extension GatewayHandler {
    /// `/v1/responses/{id}`, a response the caller's token kept for `previous_response_id`: `GET` (the SDKs'
    /// `responses.retrieve`) answers its Response object as the client was given it (decision 0125), and `HEAD` the same
    /// without the body (decision 0128); `DELETE` (`responses.delete`) forgets it before its retention is up (decision
    /// 0101). Each answers a 404 that does not tell an unknown id from another token's.
    func storedResponse(_ request: HTTPServerRequest, _ ctx: inout RequestContext) async {
        let surface = ResponsesSurface()
        ctx.log.surface = surface.name
        do {
            let client = try authenticatedClient(request, &ctx)
            try client.requireChat()
            let id = String(request.path.dropFirst(Endpoint.responsesItemPrefix.count))
            if request.method == "GET" || request.method == "HEAD" {  // the responder sends no body for HEAD
                if Self.asksForAStream(request.query) {
                    var error = GatewayError.invalidRequest("a stored response is answered whole, not streamed again: retrieve it without `stream=true`")
                    error.param = "stream"
                    throw error
                }
                let object = try await services.responses.object(id: id, tokenId: client.tokenId)
                ctx.responder.respond(status: 200, headers: ResponseHeaders.common(ctx), body: object)
                ctx.log.status = 200
                answering.account(&ctx)
                return
            }
            guard try await services.responses.delete(id: id, tokenId: client.tokenId) else {
                var error = GatewayError(domain: .caller, kind: .notFound, status: 404,
                                         message: "response '\(ResponseArchive.shown(id))' was not found for this token, so nothing was deleted: it was deleted already, is unknown, expired (responses are kept for `responses.retention_hours`), was created with another token, was sent with store: false, its conversation was over the \(ResponseArchive.maxConversationBytes / (1 << 20)) MiB kept for one, or it was among the token's oldest, dropped when its stored responses passed `responses.max_mib_per_token`; either way it is not kept, so there is nothing more to do")
                error.param = "response_id"
                throw error
            }
            respondJSON(200, ["id": .string(id), "object": "response", "deleted": true], &ctx)
        } catch {
            fail(GatewayError.from(error), surface, &ctx)
        }
    }

    /// `GET /v1/responses/{id}/input_items` (the SDKs' `responses.input_items.list`, decision 0127): a page of the items the
    /// model was given for a response the caller's token kept, newest first unless `order=asc`, `limit` at a time, after
    /// the item `after` names. The same 404 as a retrieval for a response the token does not have.
    func storedResponseInputItems(_ request: HTTPServerRequest, _ ctx: inout RequestContext) async {
        let surface = ResponsesSurface()
        ctx.log.surface = surface.name
        do {
            let client = try authenticatedClient(request, &ctx)
            try client.requireChat()
            let id = String(request.path.dropFirst(Endpoint.responsesItemPrefix.count).dropLast(Endpoint.inputItemsSuffix.count))
            let query = try ResponsesInputItemsPage.Query(request.query)
            let items = try await services.responses.inputItems(id: id, tokenId: client.tokenId)
            let page = try ResponsesInputItemsPage.page(of: items, responseId: id, query)
            ctx.responder.respond(status: 200, headers: ResponseHeaders.common(ctx), body: page)
            ctx.log.status = 200
            answering.account(&ctx)
        } catch {
            fail(GatewayError.from(error), surface, &ctx)
        }
    }

    /// Whether a retrieval's query asks to replay the stream (`stream=true`, as the SDKs' `retrieve(stream=True)` sends).
    static func asksForAStream(_ query: String?) -> Bool {
        guard let query else { return false }
        return query.split(separator: "&").contains { $0 == "stream=true" || $0 == "stream=1" || $0 == "stream=True" }
    }
}
