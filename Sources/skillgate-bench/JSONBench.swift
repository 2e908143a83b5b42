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
    try runDuplicateKeysBench(body)
}

/// What refusing repeated keys (decision 0093) costs: the benchmark request parsed as a client's body is, and the worst
/// case for the check, one object of 200,000 distinct keys in a 4 MiB body (looked up in a hash table past 16 keys;
/// compared one by one it would be 20 billion comparisons).
func runDuplicateKeysBench(_ body: [UInt8]) throws {
    let refused = try measureMicros(iterations: 2000) { _ = try JSONValue.parse(body, duplicateKeys: .refused) }
    report("parse request.json, repeated keys refused", refused, unit: "µs")
    var wide: [UInt8] = Array("{".utf8)
    for i in 0..<200_000 { wide += Array("\(i == 0 ? "" : ",")\"k\(i)\":\(1_000_000_000 + i)".utf8) }
    wide += Array("}".utf8)
    let allowedWide = try measureMicros(iterations: 3) { _ = try JSONValue.parse(wide) }
    let refusedWide = try measureMicros(iterations: 3) { _ = try JSONValue.parse(wide, duplicateKeys: .refused) }
    let skippedWide = try measureMicros(iterations: 3) {
        try wide.withUnsafeBufferPointer { buffer in
            try JSONCursor.read(buffer, duplicateKeys: .refused) { (c) throws(JSONSyntaxError) in try c.skipValue() }
        }
    }
    let size = String(format: "%.1f MiB", Double(wide.count) / 1_048_576)
    report("200,000 keys (\(size)), repeated allowed", allowedWide / 1000, unit: "ms")
    report("200,000 keys (\(size)), repeated refused", refusedWide / 1000, unit: "ms")
    report("200,000 keys (\(size)), refused, skipped", skippedWide / 1000, unit: "ms")
    // The most hash tables a body can make: objects just past the one-by-one comparisons, each with a table.
    let object = "{" + (0..<17).map { #""k\#($0)":0"# }.joined(separator: ",") + "}"
    let many = Array(("[" + Array(repeating: object, count: 4 * 1_048_576 / (object.utf8.count + 1)).joined(separator: ",") + "]").utf8)
    let allowedMany = try measureMicros(iterations: 3) { _ = try JSONValue.parse(many) }
    let refusedMany = try measureMicros(iterations: 3) { _ = try JSONValue.parse(many, duplicateKeys: .refused) }
    report("objects of 17 keys (4 MiB), repeated allowed", allowedMany / 1000, unit: "ms")
    report("objects of 17 keys (4 MiB), repeated refused", refusedMany / 1000, unit: "ms")
}

/// The 2,030-byte request of `Bench/proxy/request.json` (or `$SKILLGATE_BENCH_REQUEST`).
func benchRequestBody() throws -> [UInt8] {
    let path = ProcessInfo.processInfo.environment["SKILLGATE_BENCH_REQUEST"]
        ?? FileManager.default.currentDirectoryPath + "/Bench/proxy/request.json"
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}
