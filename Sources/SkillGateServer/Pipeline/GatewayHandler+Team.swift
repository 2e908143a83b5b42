import SkillGateCore
import SkillGateHTTP

extension GatewayHandler {
    /// `GET /v1/limits`: the caller's limits (its token's, and those of the scenarios it may use), what is used and
    /// left, and when each resets.
    func limitsStatus(_ request: HTTPServerRequest, _ ctx: inout RequestContext) async {
        do {
            let client = try authentication.authenticate(request)
            ctx.log.tokenName = client.name
            try client.requireChat()
            respondJSON(200, await limits.status(for: client), &ctx)
        } catch {
            fail(GatewayError.from(error), OpenAIChatSurface(), &ctx)
        }
    }

    /// `GET /metrics` on the main listener: the metrics, or a 404 saying where they are.
    func metrics(_ ctx: inout RequestContext) {
        let config = services.config.metrics
        guard config.enabled, config.listen == nil else {
            let where_ = config.listen.map { "on \($0.host):\($0.port) (`metrics.listen`)" } ?? "off (`metrics.enabled` is false)"
            return fail(GatewayError(domain: .caller, kind: .notFound, status: 404, message: "metrics are served \(where_), not here"),
                        OpenAIChatSurface(), &ctx)
        }
        ctx.responder.respond(status: 200, headers: ["content-type": MetricsHandler.contentType], body: Array(services.renderMetrics().utf8))
        ctx.log.status = 200
        answering.account(&ctx)
    }
}

/// The handler of the separate metrics listener (`metrics.listen`): `GET /metrics` and nothing else.
struct MetricsHandler: HTTPHandler {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    let services: GatewayServices

    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        guard request.path == "/metrics", request.method == "GET" || request.method == "HEAD" else {
            return responder.respond(status: 404, headers: ["content-type": "text/plain"], body: Array("this listener serves GET /metrics only\n".utf8))
        }
        responder.respond(status: 200, headers: ["content-type": Self.contentType], body: Array(services.renderMetrics().utf8))
    }
}

extension GatewayServices {
    /// The metrics, the ledger's counters, the tool-list cache's, the response cache's and the server's admission
    /// counters, in the text exposition format.
    func renderMetrics() -> String {
        var out = metrics.render()
        // Counters the ledger and the cache keep themselves, read now and written as families of their own.
        func family(_ name: String, _ kind: MetricFamily.Kind, _ help: String, labels: [String] = [], _ series: [([String], Int)]) {
            var family = MetricFamily(name, kind, help, labels: labels)
            for (labelValues, value) in series { family.add(Double(value), labelValues) }
            family.render(into: &out)
        }
        if let stats = ledger?.stats {
            family("skillgate_ledger_queued_records", .gauge, "Usage records waiting for the next batch write.", [([], stats.queued)])
            family("skillgate_ledger_written_records_total", .counter, "Usage records written to the state store.", [([], stats.written)])
            family("skillgate_ledger_dropped_records_total", .counter, "Usage records dropped because the queue was full.", [([], stats.dropped)])
        }
        let tools = toolLists.statistics
        family("skillgate_tool_list_cache_lookups_total", .counter,
               "Lookups of a request's tools array in the checked tool-list cache, by result.", labels: ["result"],
               [(["hit"], tools.hits), (["miss"], tools.misses)])
        family("skillgate_tool_list_cache_entries", .gauge, "Tool lists kept in the checked tool-list cache.", [([], tools.entries)])
        family("skillgate_tool_list_cache_bytes", .gauge, "Bytes the kept tool lists count against the cache's bound.", [([], tools.bytes)])
        if let cache = responseCache?.statistics {
            family("skillgate_response_cache_requests_total", .counter,
                   "Requests of scenarios that cache answers, by what the response cache did (hit, miss, refresh, bypass).", labels: ["result"],
                   [(["hit"], cache.hits), (["miss"], cache.misses), (["refresh"], cache.refreshes), (["bypass"], cache.bypasses)])
            family("skillgate_response_cache_stores_total", .counter, "Complete answers kept in the response cache.", [([], cache.stores)])
            family("skillgate_response_cache_waits_total", .counter,
                   "Requests that waited for an identical request's answer under way (response_cache.coalesce_seconds), by whether it was kept for them (hit) or they asked a model after all (miss).",
                   labels: ["result"], [(["hit"], cache.waitsHit), (["miss"], cache.waitsMissed)])
            family("skillgate_response_cache_evictions_total", .counter,
                   "Answers removed from the response cache: bytes (the least recently used, past response_cache.max_mib), expired (past their time to live).",
                   labels: ["reason"], [(["bytes"], cache.evictions), (["expired"], cache.expirations)])
            family("skillgate_response_cache_entries", .gauge, "Answers kept in the response cache.", [([], cache.entries)])
            family("skillgate_response_cache_bytes", .gauge, "Bytes the kept answers count against response_cache.max_mib.", [([], cache.bytes)])
        }
        if let server = serverStatistics.locked({ $0 })?() {
            family("skillgate_connections_open", .gauge, "Client connections open now.", [([], server.openConnections)])
            family("skillgate_connections_refused_total", .counter,
                   "Client connections closed at once over limits.max_connections (total) or max_connections_per_ip (per_ip).",
                   labels: ["cap"], [(["total"], server.refusedOverTotal), (["per_ip"], server.refusedOverPerIP)])
            family("skillgate_requests_refused_at_head_total", .counter,
                   "Requests answered from their head without reading the body: no or an invalid token, or malformed framing.",
                   [([], server.refusedAtHead)])
            family("skillgate_request_read_timeouts_total", .counter,
                   "Connections closed because a request head or body took longer than its total deadline.",
                   labels: ["part"], [(["head"], server.headerTimeouts), (["body"], server.bodyTimeouts)])
            family("skillgate_connections_lingering", .gauge,
                   "Refused client connections being read to their end before they are closed, so the client reads the refusal instead of a reset.",
                   [([], server.lingeringConnections)])
            family("skillgate_lingering_closes_total", .counter,
                   "Refused client connections closed after lingering: at the client's end (client), or when the time or byte budget ran out or too many lingered (cut_short; the client may have seen a reset).",
                   labels: ["end"], [(["client"], server.lingeringCloses), (["cut_short"], server.lingeringClosesCutShort)])
            family("skillgate_token_store_lookups_total", .counter,
                   "Requests whose token was not in the 2 s cache and was looked up in the state database, off the event loops.",
                   [([], server.deferredHeadDecisions)])
            family("skillgate_token_store_lookup_timeouts_total", .counter,
                   "Of those, the ones answered 503 because the database did not answer within the head's deadline.",
                   [([], server.headDecisionTimeouts)])
        }
        return out
    }
}
