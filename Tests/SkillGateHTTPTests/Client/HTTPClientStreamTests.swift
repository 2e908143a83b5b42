#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SkillGateHTTP

@Suite struct HTTPClientStreamTests {
    @Test(arguments: ClientEngine.allCases) func deliversHeadBeforeBodyAndChunksInOrder(_ engine: ClientEngine) async throws {
        let chunks = ["data: one\n\n", "data: two\n\n", "data: [DONE]\n\n"]
        // The server holds the body back until the test has the head: no timing assumptions.
        let gate = LoopbackGate(), heldBack = LoopbackGate()
        let server = try LoopbackServer(.chunkedAfterGate(chunks, gate: gate, timeoutMs: 60_000, heldBack: heldBack,
                                                          headers: [("Content-Type", "text/event-stream")]))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine)
        let response = try await client.stream(HTTPRequest(url: server.url("/stream")))
        gate.raise()
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/event-stream")
        var received: [UInt8] = []
        for try await piece in response.body { received += piece }
        #expect(heldBack.isRaised, "stream() returned only after the body arrived")
        #expect(String(decoding: received, as: UTF8.self) == chunks.joined())
    }

    @Test(arguments: ClientEngine.allCases) func emptyBodyEndsTheStream(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.fixed(status: 204, reason: "No Content", body: ""))
        defer { server.stop() }
        let response = try await ClientTestEnvironment.makeClient(engine).stream(HTTPRequest(method: "GET", url: server.url()))
        #expect(response.status == 204)
        #expect(try await response.collectBody().isEmpty)
    }

    @Test(arguments: ClientEngine.allCases) func errorStatusStreamsItsBody(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.fixed(status: 401, reason: "Unauthorized", body: #"{"error":"bad key"}"#))
        defer { server.stop() }
        let response = try await ClientTestEnvironment.makeClient(engine).stream(HTTPRequest(url: server.url()))
        #expect(response.status == 401)
        #expect(String(decoding: try await response.collectBody(), as: UTF8.self) == #"{"error":"bad key"}"#)
    }

    /// A slow consumer pauses the transfer: the client never buffers much more than its
    /// `streamBufferBytes`, the server is held back, and every byte still arrives intact.
    @Test(arguments: ClientEngine.allCases) func slowConsumerPausesTransferWithBoundedBuffer(_ engine: ClientEngine) async throws {
        let total = 64 * 1024 * 1024
        let server = try LoopbackServer(.bulk(totalBytes: total))
        defer { server.stop() }
        let capacity = 64 * 1024
        let client = ClientTestEnvironment.makeClient(engine, .init(streamBufferBytes: capacity))
        let response = try await client.stream(HTTPRequest(method: "GET", url: server.url()))
        var iterator = response.body.makeAsyncIterator()
        var received = try await iterator.next() ?? []
        try await Task.sleep(for: .milliseconds(400))   // fall behind
        let sentWhileBehind = server.bytesSent
        #expect(sentWhileBehind < total / 2, "the server kept writing although the consumer was behind")
        var mismatch: Int?
        var count = 0
        repeat {
            if mismatch == nil, !Self.matchesPattern(received, at: count) { mismatch = count }
            count += received.count
            received = try await iterator.next() ?? []
        } while !received.isEmpty
        #expect(count == total)
        #expect(mismatch == nil)
        let peak = client.counters.peakStreamBufferedBytes
        #expect(peak >= capacity, "the buffer never filled, so the test did not exercise pausing")
        #expect(peak <= capacity + 64 * 1024, "buffered \(peak) bytes for a \(capacity)-byte buffer")
    }

    /// Many streams at once through a small pool and a small buffer: the ones read to the end get
    /// every byte, the ones abandoned early end without disturbing the others.
    @Test(arguments: ClientEngine.allCases) func concurrentStreamsWithEarlyExitsStayIndependent(_ engine: ClientEngine) async throws {
        let total = 512 * 1024
        let server = try LoopbackServer(.bulk(totalBytes: total))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine, .init(maxConnections: 4, streamBufferBytes: 16 * 1024))
        let counts = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for i in 0..<24 {
                group.addTask {
                    let response = try await client.stream(HTTPRequest(method: "GET", url: server.url("/\(i)")))
                    var count = 0
                    for try await chunk in response.body {
                        count += chunk.count
                        if i % 3 == 0, count >= 32 * 1024 { break }
                    }
                    return (i, count)
                }
            }
            return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        #expect(counts.count == 24)
        for (i, count) in counts {
            if i % 3 == 0 { #expect(count < total) } else { #expect(count == total, "stream \(i) got \(count) bytes") }
        }
    }

    /// Whether `chunk` equals the bulk pattern (byte i is `i % 251`) starting at body offset `offset`, compared with
    /// `memcmp` against the pattern's bytes piece by piece (a chunk can be longer than what the pattern holds past its
    /// phase). A byte-by-byte generic comparison here, in a debug build, held a thread of the shared task pool for
    /// ~18 s of every parallel run: 64 MiB per engine (`scripts/pool-holders.py`, decision 0166).
    private static func matchesPattern(_ chunk: [UInt8], at offset: Int) -> Bool {
        let pattern = LoopbackHandler.bulkPattern
        return chunk.withUnsafeBytes { c in
            pattern.withUnsafeBytes { p in
                var compared = 0
                while compared < c.count {
                    let phase = (offset + compared) % 251
                    let length = min(c.count - compared, p.count - phase)
                    guard memcmp(c.baseAddress! + compared, p.baseAddress! + phase, length) == 0 else { return false }
                    compared += length
                }
                return true
            }
        }
    }
}
