import Synchronization
/// How a `LoopbackServer` answers one request on one connection (runs on the connection's thread).
struct LoopbackHandler: Sendable {
    let respond: @Sendable (LoopbackServer.Request, LoopbackConnection) -> Void

    init(_ respond: @escaping @Sendable (LoopbackServer.Request, LoopbackConnection) -> Void) { self.respond = respond }
}

extension LoopbackHandler {
    /// A complete keep-alive response with Content-Length.
    static func fixed(status: Int = 200, reason: String = "OK", headers: [(String, String)] = [], body: String = "ok") -> Self {
        Self { _, connection in
            connection.write(responseHead(status: status, reason: reason, headers: headers + [("Content-Length", "\(body.utf8.count)")]) + body)
        }
    }

    /// Echoes the request: the body is "METHOD TARGET\n" followed by the request body.
    static let echo = Self { request, connection in
        let body = Array("\(request.method) \(request.target)\n".utf8) + request.body
        connection.write(responseHead(status: 200, reason: "OK", headers: [("Content-Length", "\(body.count)")]))
        connection.write(body)
    }

    /// A forward proxy stand-in: plain requests (absolute-form targets) are echoed like `.echo`;
    /// a `CONNECT` is accepted, then the tunnelled bytes (a TLS ClientHello) are read and the
    /// connection is closed without a reply, so the client's handshake fails.
    static let proxy = Self { request, connection in
        guard request.method == "CONNECT" else { return echo.respond(request, connection) }
        connection.write("HTTP/1.1 200 Connection established\r\n\r\n")
        connection.pause(milliseconds: 200)
        connection.closeAfterResponse()
    }

    /// A chunked response whose chunks are written `delayMs` apart.
    static func chunked(_ chunks: [String], delayMs: Int, headers: [(String, String)] = []) -> Self {
        Self { _, connection in
            connection.write(responseHead(status: 200, reason: "OK", headers: headers + [("Transfer-Encoding", "chunked")]))
            for chunk in chunks {
                guard connection.pause(milliseconds: delayMs) else { return }
                connection.write(chunkFrame(chunk))
            }
            connection.write("0\r\n\r\n")
        }
    }

    /// Waits `delayMs` before sending anything, then answers with `then`.
    static func delayedHead(_ delayMs: Int, then: LoopbackHandler = .fixed()) -> Self {
        Self { request, connection in
            guard connection.pause(milliseconds: delayMs) else { return }
            then.respond(request, connection)
        }
    }

    /// Sends the head and `firstPart` of a longer Content-Length body, then stalls until the client closes.
    static func stallMidBody(firstPart: String, declaredLength: Int) -> Self {
        Self { _, connection in
            connection.write(responseHead(status: 200, reason: "OK", headers: [("Content-Length", "\(declaredLength)")]) + firstPart)
            connection.waitForPeerClose()
        }
    }

    /// A chunked response that sends one chunk every `intervalMs` until the client closes.
    static func drip(intervalMs: Int, chunk: String = "data: tick\n\n") -> Self {
        Self { _, connection in
            connection.write(responseHead(status: 200, reason: "OK", headers: [("Transfer-Encoding", "chunked"), ("Content-Type", "text/event-stream")]))
            repeat {
                guard connection.write(chunkFrame(chunk)) else { return }
            } while connection.pause(milliseconds: intervalMs)
        }
    }

    /// 251 × 256 bytes where byte i is `i % 251`: written back to back it continues the pattern.
    static let bulkPattern: [UInt8] = (0..<(251 * 256)).map { UInt8($0 % 251) }

    /// A Content-Length body of `totalBytes` (byte i is `i % 251`) written as fast as the client
    /// reads, through a small send buffer so the server feels the client's backpressure.
    static func bulk(totalBytes: Int) -> Self {
        Self { _, connection in
            connection.setSendBuffer(bytes: 64 * 1024)
            connection.write(responseHead(status: 200, reason: "OK", headers: [("Content-Length", "\(totalBytes)")]))
            var offset = 0
            while offset < totalBytes {
                let n = min(bulkPattern.count, totalBytes - offset)
                guard connection.write(n == bulkPattern.count ? bulkPattern : Array(bulkPattern[0..<n])) else { return }
                offset += n
            }
        }
    }

    static func responseHead(status: Int, reason: String, headers: [(String, String)]) -> String {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return head + "\r\n"
    }

    static func chunkFrame(_ chunk: String) -> String {
        "\(String(chunk.utf8.count, radix: 16))\r\n\(chunk)\r\n"
    }
}

/// A one-way flag a test raises and a loopback handler waits for (on the server's own thread).
final class LoopbackGate: Sendable {
    private let raised = Mutex(false)
    func raise() { raised.locked { $0 = true } }
    var isRaised: Bool { raised.locked { $0 } }
}

extension LoopbackHandler {
    /// Sends the head, then holds the body back until `gate` is raised (or `timeoutMs` passes),
    /// recording in `heldBack` whether the gate was raised while the body was still held back.
    static func chunkedAfterGate(_ chunks: [String], gate: LoopbackGate, timeoutMs: Int, heldBack: LoopbackGate,
                                 headers: [(String, String)] = []) -> Self {
        Self { _, connection in
            connection.write(responseHead(status: 200, reason: "OK", headers: headers + [("Transfer-Encoding", "chunked")]))
            var waited = 0
            while !gate.isRaised, waited < timeoutMs {
                guard connection.pause(milliseconds: 5) else { return }
                waited += 5
            }
            if gate.isRaised { heldBack.raise() }
            for chunk in chunks { connection.write(chunkFrame(chunk)) }
            connection.write("0\r\n\r\n")
        }
    }
}
