import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateRouting

extension GatewayHandler {
    /// `POST /v1/chat/completions` and `POST /v1/messages`: authenticate, decode, route, run the
    /// plan through the `RouteExecutor` (retries and fallbacks only before anything reached the
    /// client), encode.
    func chat(_ request: HTTPServerRequest, surface: ChatSurface, _ ctx: inout RequestContext, _ responder: HTTPResponder) async {
        ctx.log.surface = surface.rawValue
        do {
            let client = try services.authenticate(request.headers)
            ctx.log.tokenName = client.name
            let inbound = try surface.decode(request.body)
            ctx.log.stream = inbound.stream
            let chat = try await prepare(inbound.request, for: client, scenario: nil, headers: request.headers, &ctx)
            let prepared = chat.request
            // Server-side skills visible: the agent loop runs them (Agent/, GatewayHandler+AgentChat.swift).
            if !chat.skills.serverSkills.isEmpty {
                let setup = agentSetup(chat.skills, scenario: chat.scenario, scope: client.scope, plan: chat.plan,
                                       tokenName: client.name, requestId: ctx.requestId)
                return try await agentChat(prepared, inbound, setup, surface: surface, &ctx, responder)
            }
            // Skills: answers checked (invisible calls), unusable light answers re-run on the escalation tier.
            try await withAnswerChecks(chat.skills, scenario: chat.scenario, scope: client.scope, plan: chat.plan, &ctx) { plan, ctx in
                if inbound.stream {
                    try await stream(prepared, inbound, plan: plan, surface: surface, &ctx, responder)
                } else {
                    try await complete(prepared, inbound, plan: plan, surface: surface, &ctx, responder)
                }
            }
        } catch {
            finish(&ctx, responder, error: Self.gatewayError(error), surface: surface)
        }
    }

    private func complete(_ prepared: ChatRequest, _ inbound: InboundChat, plan: RoutePlan, surface: ChatSurface,
                          _ ctx: inout RequestContext, _ responder: HTTPResponder) async throws {
        var attempts: [AttemptRecord] = []
        let upstreamStart = ContinuousClock.now
        let response: ChatResponse, target: RouteTarget
        do {
            (response, target) = try await services.executor.complete(prepared, plan: plan, attempts: &attempts)
        } catch {
            noteFailedAttempts(attempts, plan: plan, &ctx)
            throw error
        }
        // Seam: the answer check (escalation) inspects `response` here, before anything is sent.
        ctx.log.provider = target.provider.id
        ctx.log.model = target.qualifiedName
        ctx.log.upstreamMs = Self.ms(since: upstreamStart)
        ctx.log.usage = response.usage
        ctx.log.costUSD = target.model.price?.cost(of: response.usage)
        ctx.log.attempts += attempts.map(\.logText)
        let body = surface.responseBody(response, id: responseId(response.id, ctx, surface), model: target.qualifiedName,
                                        created: Int(Date().timeIntervalSince1970))
        responder.respond(status: 200, headers: commonHeaders(ctx), body: body)
        ctx.log.status = 200
        complete(&ctx)
    }

    private func stream(_ prepared: ChatRequest, _ inbound: InboundChat, plan: RoutePlan, surface: ChatSurface,
                        _ ctx: inout RequestContext, _ responder: HTTPResponder) async throws {
        var attempts: [AttemptRecord] = []
        let upstreamStart = ContinuousClock.now
        var upstream: UpstreamStream
        do {
            upstream = try await services.executor.openStream(prepared, plan: plan, attempts: &attempts)
        } catch {
            noteFailedAttempts(attempts, plan: plan, &ctx)
            throw error
        }
        ctx.log.attempts += attempts.map(\.logText)
        ctx.log.provider = upstream.target.provider.id
        ctx.log.model = upstream.target.qualifiedName
        ctx.log.upstreamMs = Self.ms(since: upstreamStart)
        await relay(&upstream, surface: surface, inbound: inbound, &ctx, responder)
    }

    /// Streams the answer to the client. Nothing is retried from here on: bytes reached the client.
    private func relay(_ upstream: inout UpstreamStream, surface: ChatSurface, inbound: InboundChat,
                       _ ctx: inout RequestContext, _ responder: HTTPResponder) async {
        defer { upstream.finish() }
        let target = upstream.target
        var headers = commonHeaders(ctx, contentType: "text/event-stream")
        headers.add("cache-control", "no-cache")
        headers.add("x-accel-buffering", "no")
        var encoder = surface.streamEncoder(id: "chatcmpl-\(ctx.requestId.dropFirst(4))", model: target.qualifiedName,
                                            created: Int(Date().timeIntervalSince1970), includeUsage: inbound.includeUsage)
        var usage: Usage?
        do {
            try await responder.startStream(status: 200, headers: headers)
            ctx.log.status = 200
            while let event = try await upstream.next() {
                if case .usage(let u) = event { usage = u }
                let bytes = encoder.encode(event)
                if !bytes.isEmpty { try await responder.write(bytes) }
            }
            try await responder.write(encoder.finish())
        } catch {
            let e = Self.gatewayError(error)
            ctx.log.error = e.clientMessage
            if !responder.isClientGone, e.kind != .cancelled {
                try? await responder.write(encoder.errorEvent(e))
            } else {
                ctx.log.status = 499
            }
        }
        responder.end()
        if let usage {
            ctx.log.usage = usage
            ctx.log.costUSD = target.model.price?.cost(of: usage)
        }
        complete(&ctx)
    }

    /// Logs the attempts of a request that failed, and names the last deployment tried (the
    /// `x-skillgate-provider`/`-model` headers of the error response).
    private func noteFailedAttempts(_ attempts: [AttemptRecord], plan: RoutePlan, _ ctx: inout RequestContext) {
        ctx.log.attempts += attempts.map(\.logText)
        let tried = attempts.last { if case .skipped = $0.outcome { false } else { true } } ?? attempts.last
        if let name = tried?.deployment ?? plan.targets.first?.qualifiedName,
           let target = plan.targets.first(where: { $0.qualifiedName == name }) {
            ctx.log.provider = target.provider.id
            ctx.log.model = target.qualifiedName
        }
    }

    private func responseId(_ upstreamId: String, _ ctx: RequestContext, _ surface: ChatSurface) -> String {
        if !upstreamId.isEmpty { return upstreamId }
        return (surface == .anthropic ? "msg_" : "chatcmpl-") + ctx.requestId.dropFirst(4)
    }

    static func ms(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
}
