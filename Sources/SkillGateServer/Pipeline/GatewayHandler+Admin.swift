import SkillGateCore
import SkillGateHTTP

/// The admin API and the console (decision 0030).
extension GatewayHandler {
    /// `/admin/api/...`: an admin token (401 without a valid token, 403 with an ordinary one), then the route.
    func admin(_ request: HTTPServerRequest, _ ctx: inout RequestContext) async {
        do {
            let client = try authentication.authenticate(request)
            // No token id: admin requests are logged, never ledger rows (they cost nothing and would crowd reports).
            ctx.log.tokenName = client.name
            try client.requireAdmin()
            let route = try AdminAPI.Route(method: request.method, path: request.path)
            if route == .traffic { return await trafficTail(&ctx, headOnly: request.method == "HEAD") }
            // Off the event loop: the answers read and write the state store (decision 0086).
            let api = AdminAPI(services: services, limits: limits)
            let (status, body) = try await services.adminWork.run { () throws -> (Int, [UInt8]) in
                let (status, answer) = try api.answer(route, request, client)
                return (status, answer.serializedBytes())
            }
            var headers = ResponseHeaders.common(ctx)
            headers.set("cache-control", "no-store")
            ctx.responder.respond(status: status, headers: headers, body: body)
            ctx.log.status = status
            answering.account(&ctx)
        } catch {
            let e = GatewayError.from(error)
            let allow = e.status == 405 ? AdminAPI.Route.allowed(path: request.path) : nil
            fail(e, OpenAIChatSurface(), &ctx, extraHeaders: allow.map { ["allow": $0] } ?? [:])
        }
    }

    /// `GET /admin/api/traffic`: each finished chat or agent request as an SSE `request` event (the shape of
    /// `/admin/api/requests` rows), a `dropped` event when this tail fell behind and lost some, and a comment every
    /// 10 s. Ends when the client leaves or the gateway shuts down; the console reconnects. `headOnly` (a HEAD request):
    /// the stream's head alone, which is the whole reply, and no tail held open (decision 0137).
    func trafficTail(_ ctx: inout RequestContext, headOnly: Bool = false) async {
        guard let subscription = services.traffic.subscribe() else {
            if services.draining.load(ordering: .relaxed) { return fail(.shuttingDown, OpenAIChatSurface(), &ctx) }
            // The gateway's own cap on open tails, not an upstream's trouble: a 429 like the other limits.
            return fail(GatewayError(domain: .policy, kind: .rateLimited, status: 429,
                                     message: "\(services.traffic.maxSubscribers) traffic tails are open already; close one (a console tab) and retry",
                                     retryAfter: 5), OpenAIChatSurface(), &ctx)
        }
        ctx.log.status = 200
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(10))
                subscription.ping()
            }
        }
        defer {
            heartbeat.cancel()
            services.traffic.unsubscribe(subscription.id)
        }
        do {
            var headers = SSEResponse.headers(ctx)
            headers.set("cache-control", "no-store")
            try await ctx.responder.startStream(status: 200, headers: headers)
            if headOnly {
                ctx.responder.end()
                return answering.account(&ctx)
            }
            try await ctx.responder.write(Array("retry: 2000\n: traffic tail open\n\n".utf8))
            for await item in subscription.items {
                var chunk = ""
                let lost = subscription.takeDropped()
                if lost > 0 { chunk += "event: dropped\ndata: {\"count\":\(lost)}\n\n" }
                switch item {
                case .request(let event): chunk += "event: request\ndata: \(event.json().serialized())\n\n"
                case .heartbeat: chunk += ": keep-alive\n\n"
                }
                try await ctx.responder.write(Array(chunk.utf8))
            }
        } catch {
            ctx.log.status = 499
        }
        ctx.responder.end()
        answering.account(&ctx)
    }

    /// `GET /console/...`: the console's files, with the strict Content-Security-Policy; 404 when it is off.
    func console(_ request: HTTPServerRequest, _ ctx: inout RequestContext) {
        guard let assets = services.consoleAssets else {
            let why = services.config.console.enabled
                ? "its files were not found in \(services.config.console.assetsDirectory) (set console.assets_dir to the repository's Console directory)"
                : "it is turned off (console.enabled is false in \(services.config.sourceFile))"
            return fail(GatewayError(domain: .caller, kind: .notFound, status: 404, message: "the web console is not served: \(why)"), OpenAIChatSurface(), &ctx)
        }
        guard let file = assets.file(for: request.path) else {
            return fail(GatewayError(domain: .caller, kind: .notFound, status: 404, message: "no console file \(request.path); the console starts at \(ConsoleAssets.root)"),
                        OpenAIChatSurface(), &ctx)
        }
        var headers = ConsoleAssets.headers(contentType: file.contentType)
        headers.set("x-request-id", ctx.requestId)
        ctx.responder.respond(status: 200, headers: headers, body: file.bytes)
        ctx.log.status = 200
        answering.account(&ctx)
    }
}
