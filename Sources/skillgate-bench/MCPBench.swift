import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateServer
import SkillGateSkills

/// `POST /mcp` `tools/call` of a built-in skill (the calculator) on a gateway in this process, over
/// loopback HTTP, against the skill's own time measured in the same run. What MCP adds is the
/// difference (target ≤ 1 ms). References: `GET /healthz` (the HTTP round trip alone) and `ping`
/// (authentication and JSON-RPC, no skill).
func runMCPBench() async throws {
    let directory = NSTemporaryDirectory() + "skillgate-mcp-bench-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory + "/Providers", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: "Providers/demo.json", toPath: directory + "/Providers/demo.json")
    let config = #"""
    {"listen":"127.0.0.1:0","state_dir":"state","key_file":"keys/keys.json","providers_dir":"Providers","default_model":"demo/demo-light",
     "server_skills":{"builtin":["calculator"]},"skill_packs":{"math":["calculator"]},
     "scenarios":{"math":{"skill_packs":["math"]}},"default_scenario":"math"}
    """#
    try config.write(toFile: directory + "/skillgate.json", atomically: true, encoding: .utf8)
    let loaded = try GatewayConfig.load(path: directory + "/skillgate.json")
    let token = try GatewayServer.openTokenService(config: loaded).create(name: "bench").token
    let devNull = open("/dev/null", O_WRONLY)
    let gateway = try GatewayServer(config: loaded, logFD: devNull)
    try gateway.start()
    let client = HTTPClient()
    let url = "http://127.0.0.1:\(gateway.boundPort)/mcp"
    let headers: HTTPHeaders = ["authorization": "Bearer \(token)", "content-type": "application/json", "accept": "application/json, text/event-stream"]
    let call = Array(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"2 * (3 + 4) ^ 2"}}}"#.utf8)
    let ping = Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8)

    let skill = CalculatorSkill()
    let arguments: JSONValue = ["expression": "2 * (3 + 4) ^ 2"]
    let context = SkillContext(tokenName: "bench", requestId: "bench")
    let own = try await medianMicros(iterations: 2000) { _ = try await skill.execute(arguments, context: context) }
    let health = try await medianMicros(iterations: 2000) {
        let r = try await client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(gateway.boundPort)/healthz"))
        precondition(r.status == 200)
    }
    let pinged = try await medianMicros(iterations: 2000) {
        let r = try await client.send(HTTPRequest(url: url, headers: headers, body: ping))
        precondition(r.status == 200)
    }
    let called = try await medianMicros(iterations: 2000) {
        let r = try await client.send(HTTPRequest(url: url, headers: headers, body: call))
        precondition(r.status == 200 && String(decoding: r.body, as: UTF8.self).contains("98"), "tools/call must answer 98")
    }
    report("calculator's own time (direct execute)", own, unit: "µs")
    report("GET /healthz round trip (reference)", health, unit: "µs")
    report("/mcp ping round trip (reference)", pinged, unit: "µs")
    report("/mcp tools/call calculator round trip", called, unit: "µs")
    report("added by MCP over the skill's own time", called - own, unit: "µs", target: "target ≤ 1000 µs")
    client.shutdown()
    await gateway.shutdown()
    close(devNull)
}

/// The median of 5 rounds of `iterations` sequential runs of an async `body`, in microseconds per run (after a warm-up).
private func medianMicros(iterations: Int, _ body: () async throws -> Void) async throws -> Double {
    for _ in 0..<max(1, iterations / 10) { try await body() }
    var rounds: [Double] = []
    for _ in 0..<5 {
        let start = ContinuousClock.now
        for _ in 0..<iterations { try await body() }
        let elapsed = ContinuousClock.now - start
        rounds.append((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 1e6 / Double(iterations))
    }
    return rounds.sorted()[2]
}
