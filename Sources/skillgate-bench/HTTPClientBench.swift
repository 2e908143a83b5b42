#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SkillGateHTTP

/// Sequential small requests through `HTTPClient.send` on one reused keep-alive connection to a
/// minimal local server, and as the reference in the same run a raw blocking-socket keep-alive
/// client sending the same bytes. Reports requests/s and p50 latency of each.
func runHTTPClientBench() async throws {
    let server = try BenchKeepAliveServer()
    defer { server.stop() }
    let requests = 20_000
    let client = HTTPClient(configuration: .init(maxConnections: 1))
    let request = HTTPRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/v1/ping",
                              headers: ["Authorization": "Bearer bench"])
    for _ in 0..<500 { _ = try await client.send(request) }   // warm-up
    var latencies: [UInt64] = []
    latencies.reserveCapacity(requests)
    let started = benchNanoseconds()
    let cpuStarted = processCPUMicros()
    for _ in 0..<requests {
        let t0 = benchNanoseconds()
        let response = try await client.send(request)
        latencies.append(benchNanoseconds() - t0)
        if response.status != 200 { throw BenchError("unexpected status \(response.status)") }
    }
    let clientSeconds = Double(benchNanoseconds() - started) / 1e9
    let clientCPU = (processCPUMicros() - cpuStarted) / Double(requests)
    client.shutdown()

    let raw = try BenchRawClient(port: server.port)
    let rawRequest = Array("GET /v1/ping HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer bench\r\nAccept: */*\r\n\r\n".utf8)
    for _ in 0..<500 { try raw.roundTrip(rawRequest) }
    var rawLatencies: [UInt64] = []
    rawLatencies.reserveCapacity(requests)
    let rawStarted = benchNanoseconds()
    let rawCPUStarted = processCPUMicros()
    for _ in 0..<requests {
        let t0 = benchNanoseconds()
        try raw.roundTrip(rawRequest)
        rawLatencies.append(benchNanoseconds() - t0)
    }
    let rawSeconds = Double(benchNanoseconds() - rawStarted) / 1e9
    let rawCPU = (processCPUMicros() - rawCPUStarted) / Double(requests)
    raw.close()

    let hop = BenchThreadHop()
    for _ in 0..<500 { await hop.roundTrip() }
    var hopLatencies: [UInt64] = []
    hopLatencies.reserveCapacity(requests)
    for _ in 0..<requests {
        let t0 = benchNanoseconds()
        await hop.roundTrip()
        hopLatencies.append(benchNanoseconds() - t0)
    }
    hop.stop()

    report("HTTPClient.send sequential, keep-alive", Double(requests) / clientSeconds, unit: "req/s", target: "target ≥ 10000")
    report("HTTPClient.send p50 latency", percentile(latencies, 0.5) / 1000, unit: "µs")
    report("HTTPClient.send CPU per request (client + server threads)", clientCPU, unit: "µs CPU")
    report("raw blocking socket (reference)", Double(requests) / rawSeconds, unit: "req/s")
    report("raw blocking socket CPU per request (reference)", rawCPU, unit: "µs CPU")
    report("raw blocking socket p50 latency (reference)", percentile(rawLatencies, 0.5) / 1000, unit: "µs")
    report("task → thread → task hop p50 (floor, no I/O)", percentile(hopLatencies, 0.5) / 1000, unit: "µs")
    report("connections accepted by the bench server", Double(server.acceptedConnections), unit: "", target: "2 expected (client + reference)")
}

private func percentile(_ values: [UInt64], _ p: Double) -> Double {
    let sorted = values.sorted()
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
}

func benchNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
