import Foundation
import SkillGateCore

/// Parses and writes the shared benchmark request with SkillGate's JSON and, as the reference in
/// the same run, Foundation's JSONSerialization.
func runJSONBench() async throws {
    let body = try benchRequestBody()
    let data = Data(body)
    let ours = try measureMicros(iterations: 2000) { _ = try JSONValue.parse(body) }
    let foundation = try measureMicros(iterations: 2000) { _ = try JSONSerialization.jsonObject(with: data) }
    report("parse request.json (SkillGate JSONValue)", ours, unit: "µs")
    report("parse request.json (Foundation, reference)", foundation, unit: "µs")
    let value = try JSONValue.parse(body)
    let object = try JSONSerialization.jsonObject(with: data)
    let write = measureMicros(iterations: 2000) { _ = value.serializedBytes() }
    let writeRef = try measureMicros(iterations: 2000) { _ = try JSONSerialization.data(withJSONObject: object) }
    report("write request.json (SkillGate JSONValue)", write, unit: "µs")
    report("write request.json (Foundation, reference)", writeRef, unit: "µs")
}

/// The 2,030-byte request of `Bench/proxy/request.json` (or `$SKILLGATE_BENCH_REQUEST`).
func benchRequestBody() throws -> [UInt8] {
    let path = ProcessInfo.processInfo.environment["SKILLGATE_BENCH_REQUEST"]
        ?? FileManager.default.currentDirectoryPath + "/Bench/proxy/request.json"
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}
