import SkillGateCore

extension RequestLogEntry {
    /// Appends the entry's log line — the same bytes as `json()` written compactly — straight to `out`, without
    /// building the JSON tree first: the log thread formats one line per request, and the tree (a dozen strings and
    /// an object per line) was most of its ~10 µs per request (decision 0034).
    func writeJSON(to out: inout [UInt8]) {
        var first = true
        func key(_ name: StaticString) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ":"))
        }
        func string(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            key(name)
            JSONValue.writeString(value, to: &out)
        }
        func integer(_ name: StaticString, _ value: Int?) {
            guard let value else { return }
            key(name)
            out.append(contentsOf: String(value).utf8)
        }
        func number(_ name: StaticString, _ value: Double?) {
            guard let value else { return }
            key(name)
            JSONValue.double(value).write(to: &out)
        }
        func strings(_ name: StaticString, _ values: [String]) {
            key(name)
            out.append(UInt8(ascii: "["))
            for (i, value) in values.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(value, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }

        string("time", RequestLog.timestamp(time))
        string("level", status >= 500 ? "error" : (status >= 400 || error != nil ? "warn" : "info"))
        string("request_id", requestId)
        string("method", method)
        string("path", path)
        integer("status", status)
        string("token", tokenName)
        string("surface", surface)
        string("scenario", scenario)
        string("provider", provider)
        string("model", model)
        string("route", route)
        key("stream")
        out.append(contentsOf: (stream ? "true" : "false").utf8)
        string("cache", cache?.rawValue)
        integer("cache_age_s", cacheAgeSeconds)
        number("cache_wait_ms", cacheWaitMs.map { ($0 * 100).rounded() / 100 })
        number("total_ms", (totalMs * 100).rounded() / 100)
        number("upstream_ms", upstreamMs.map { ($0 * 100).rounded() / 100 })
        if let usage {
            integer("input_tokens", usage.inputTokens)
            integer("output_tokens", usage.outputTokens)
            if usage.cachedInputTokens > 0 { integer("cached_input_tokens", usage.cachedInputTokens) }
            if usage.cacheWriteTokens > 0 { integer("cache_write_tokens", usage.cacheWriteTokens) }
            if usageEstimated {
                key("usage_estimated")
                out.append(contentsOf: "true".utf8)
            }
        }
        number("cost_usd", costUSD.map { ($0 * 1e8).rounded() / 1e8 })
        if !attempts.isEmpty { strings("attempts", attempts.map(\.text)) }
        if let skills {
            // Rare fields with their own rules: written from the decision's object.
            var fields = JSONObject()
            skills.appendLogFields(to: &fields)
            for member in fields.members {
                out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
                first = false
                JSONValue.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
        }
        if escalations > 0 { integer("escalations", escalations) }
        if let unusableUsage {
            // The unusable answer that was escalated: paid for too (the ledger and budgets count it; decision 0108).
            integer("unusable_input_tokens", unusableUsage.inputTokens)
            integer("unusable_output_tokens", unusableUsage.outputTokens)
            number("unusable_cost_usd", unusableCostUSD.map { ($0 * 1e8).rounded() / 1e8 })
            if usageEstimated, usage == nil {  // a failed attempt's (decision 0120)
                key("usage_estimated")
                out.append(contentsOf: "true".utf8)
            }
        }
        integer("agent_iterations", agentIterations)
        if agentIterations != nil || !skillsRun.isEmpty { strings("skills_run", skillsRun) }
        if error != nil || status >= 400 { string("outcome", outcome) }
        string("error", boundedError)
        out.append(UInt8(ascii: "}"))
    }
}
