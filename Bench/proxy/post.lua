-- wrk script of the side-by-side benchmark: POST one chat request body ($REQ_BODY) with a bearer token
-- ($AUTH_TOKEN) and print one machine-readable line the harness parses.
local file = assert(io.open(os.getenv("REQ_BODY"), "rb"))
wrk.method = "POST"
wrk.body = file:read("*a")
file:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("AUTH_TOKEN")

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d duration_us=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, e.status + e.connect + e.read + e.write + e.timeout))
end
