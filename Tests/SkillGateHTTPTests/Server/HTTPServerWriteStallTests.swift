import Foundation
import SkillGateHTTP
import Testing

/// A client that stops reading a stream is cut off once its reply bytes have waited `writeStallTimeout` (the shortest
/// of the head, body and keep-alive timeouts) without any going out; its handler, held at the output high-water mark,
/// then hears the client is gone.
@Suite("HTTPServer write stall")
struct HTTPServerWriteStallTests {
    @Test func aClientThatStopsReadingIsCutOffAndItsHandlerToldSo() async throws {
        let outcome = ServerTestFlag<String>()
        try await withTestServer({
            $0.headerTimeout = .milliseconds(600)
            $0.outputHighWaterBytes = 64 * 1024
        }, handler: { _, responder in
            do {
                try await responder.startStream(status: 200, headers: ["Content-Type": "application/octet-stream"])
                let chunk = [UInt8](repeating: 0x61, count: 16 * 1024)
                // Far more than the socket buffers hold: the writes must stop when the client reads nothing.
                for _ in 0..<100_000 { try await responder.write(chunk) }
                outcome.set("wrote everything")
            } catch {
                outcome.set("stopped: \(error)")
            }
        }) { _, port in
            let client = try RawHTTPClient(port: port, receiveTimeout: 10)
            client.send(rawGET("/never-read"))   // and then reads nothing
            let result = await outcome.wait(upTo: .seconds(20))
            #expect(result?.hasPrefix("stopped: clientGone") == true, "\(result ?? "the handler is still writing after 20 s")")
            withExtendedLifetime(client) {}
        }
    }
}
