import Foundation
import Synchronization
import Testing
@testable import SkillGateHTTP

/// What the own HTTP/1.1 client does beyond the contract both clients share (decision 0051): the shared fault tests
/// run on it too (`ClientEngine`); these cover its own retry, address and framing paths against real sockets.
@Suite struct HTTP1EngineTests {
    /// Answers the first request of every connection; reads the second and closes without a word (a kept-alive
    /// connection the upstream gave up on just as it was reused).
    static func answersOnlyFirstRequestPerConnection() -> LoopbackHandler {
        let served = Mutex<[Int32: Int]>([:])
        return LoopbackHandler { _, connection in
            let count = served.locked { seen -> Int in
                seen[connection.fd, default: 0] += 1
                return seen[connection.fd]!
            }
            if count == 1 {
                LoopbackHandler.fixed(body: "first").respond(.init(method: "", target: "", headers: [], body: []), connection)
            } else {
                connection.closeAfterResponse()
            }
        }
    }

    @Test func aReusedConnectionDroppedBeforeAnyAnswerIsReplacedOnceByAFreshOne() async throws {
        let server = try LoopbackServer(Self.answersOnlyFirstRequestPerConnection())
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(.ownHTTP1)
        #expect(try await client.send(HTTPRequest(method: "GET", url: server.url("/a"))).status == 200)
        let second = try await client.send(HTTPRequest(method: "GET", url: server.url("/b")))
        #expect(String(decoding: second.body, as: UTF8.self) == "first")
        #expect(server.acceptedConnections == 2)
        #expect(server.requests.map(\.target) == ["/a", "/b", "/b"])
        #expect(client.transfersOnOwnHTTP1Client == 2)
    }

    @Test func aFreshConnectionDroppedBeforeAnyAnswerFailsWithoutARetry() async throws {
        let server = try LoopbackServer(LoopbackHandler { _, connection in connection.closeAfterResponse() })
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(.ownHTTP1)
        let error = await #expect(throws: HTTPClientError.self) { _ = try await client.send(HTTPRequest(url: server.url())) }
        #expect(error?.kind == .transport)
        #expect(error?.detail.contains("no complete response head arrived") == true, "\(String(describing: error))")
        #expect(server.requests.count == 1)
    }

    @Test func pinnedAddressesAreTriedInOrderUntilOneAccepts() async throws {
        let server = try LoopbackServer(.echo)
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(.ownHTTP1)
        var request = HTTPRequest(method: "GET", url: "http://upstream.test:\(server.port)/v1/models")
        // Nothing listens on 127.0.0.2 at this port: refused, so the second address serves.
        request.pin = HTTPAddressPin(host: "upstream.test", port: server.port, addresses: ["127.0.0.2", "127.0.0.1"])
        let response = try await client.send(request)
        #expect(String(decoding: response.body, as: UTF8.self) == "GET /v1/models\n")
        #expect(server.requests.first?.header("host") == "upstream.test:\(server.port)")
        #expect(client.transfersOnOwnHTTP1Client == 1)

        request.pin = HTTPAddressPin(host: "upstream.test", port: server.port, addresses: ["127.0.0.2", "127.0.0.3"])
        let error = await #expect(throws: HTTPClientError.self) { _ = try await client.send(request) }
        #expect(error?.kind == .connect)
        #expect(error?.detail.contains("127.0.0.2, 127.0.0.3 port \(server.port)") == true, "\(String(describing: error))")
    }

    /// An interim 100 Continue, then a body delimited by the connection's close: delivered whole, and the connection
    /// is not reused.
    @Test func aCloseDelimitedBodyAfterAnInterimHeadIsDeliveredAndItsConnectionRetired() async throws {
        let server = try LoopbackServer(LoopbackHandler { _, connection in
            connection.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the close")
            connection.closeAfterResponse()
        })
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(.ownHTTP1)
        for _ in 0..<2 {
            let response = try await client.send(HTTPRequest(url: server.url(), body: Array("{}".utf8)))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "until the close")
        }
        #expect(server.acceptedConnections == 2)
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc",
        "HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 0\r\n\r\n",
        "SSH-2.0-OpenSSH_9.2\r\n\r\n",
    ])
    func anAnswerThatIsNotValidHTTPFailsTheRequestAndRetiresTheConnection(_ answer: String) async throws {
        let server = try LoopbackServer(LoopbackHandler { _, connection in connection.write(answer) })
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(.ownHTTP1)
        for _ in 0..<2 {
            let error = await #expect(throws: HTTPClientError.self) { _ = try await client.send(HTTPRequest(method: "GET", url: server.url())) }
            #expect(error?.kind == .transport)
            #expect(error?.detail.contains("not valid HTTP/1.1") == true, "\(String(describing: error))")
        }
        #expect(server.acceptedConnections == 2)
    }

    @Test func aChunkedStreamArrivesChunkByChunkOnTheOwnClient() async throws {
        let server = try LoopbackServer(.chunked(["data: one\n\n", "data: two\n\n", "data: [DONE]\n\n"], delayMs: 20,
                                                 headers: [("Content-Type", "text/event-stream")]))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(.ownHTTP1)
        let response = try await client.stream(HTTPRequest(url: server.url(), body: Array("{}".utf8)))
        var chunks: [String] = []
        for try await chunk in response.body { chunks.append(String(decoding: chunk, as: UTF8.self)) }
        #expect(chunks == ["data: one\n\n", "data: two\n\n", "data: [DONE]\n\n"])
        #expect(client.transfersOnOwnHTTP1Client == 1)
    }
}

/// An upstream that answers 413 as soon as it has a request's head, before reading its body, waits 300 ms, then reads
/// (and drops) whatever comes until the client closes: how long that took tells whether the client kept the connection.
final class EarlyAnswerUpstream: @unchecked Sendable {
    let port: Int
    private let listenFD: Int32
    private let closedAfter = Mutex<Double?>(nil)

    init() throws {
        (listenFD, port) = try LoopbackSocket.listen(backlog: 4)
        // A small receive buffer, inherited by the accepted socket, turns off the kernel's autotuning (which may grow
        // to net.ipv4.tcp_rmem's maximum, 32 MiB here): the request body can then not be taken whole before the answer.
        var receiveBuffer: Int32 = 64 * 1024
        setsockopt(listenFD, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
        let fd = listenFD
        Thread { [self] in
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while !received.contains(0x0A) || !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
                let n = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { return }
                received += chunk[0..<n]
            }
            _ = LoopbackSocket.writeAll(connection, Array("HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n".utf8))
            let answeredAt = LoopbackSocket.now()
            // Read nothing for a while: the client, its buffers full, sees the answer before it could send the rest.
            usleep(300_000)
            var timeout = timeval(tv_sec: 3, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            while chunk.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0 {}
            self.closedAfter.locked { $0 = millisecondsBetween(answeredAt, LoopbackSocket.now()) }
        }.start()
    }

    deinit { close(listenFD) }

    /// Milliseconds from the answer until the client's close (or the 3 s read timeout) once the server saw either.
    func millisecondsUntilClose() async -> Double? {
        for _ in 0..<400 {
            if let value = closedAfter.locked({ $0 }) { return value }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

extension HTTP1EngineTests {
    /// An answer that arrives before the whole request was sent (a 413 to a large body) leaves the rest of the request
    /// unsent: the connection is closed at once instead of being pooled out of step.
    @Test func aConnectionAnsweredBeforeTheRequestWasSentIsClosedNotKept() async throws {
        let upstream = try EarlyAnswerUpstream()
        let client = ClientTestEnvironment.makeClient(.ownHTTP1)
        let body = [UInt8](repeating: 0x61, count: 32 * 1024 * 1024)
        let response = try await client.send(HTTPRequest(url: "http://127.0.0.1:\(upstream.port)/upload", body: body))
        #expect(response.status == 413)
        let closedAfter = await upstream.millisecondsUntilClose()
        #expect((closedAfter ?? .infinity) < 1000, "the client kept the connection for \(String(describing: closedAfter)) ms")
    }
}

extension HTTP1EngineTests {
    /// Pools, their idle connections and transfers point at each other while in use; stopping the client breaks those
    /// links, so nothing of the engine outlives it (LeakSanitizer found the cycle: decision 0051).
    @Test func stoppingTheClientFreesItsPoolsAndIdleConnections() async throws {
        let server = try LoopbackServer(.fixed())
        defer { server.stop() }
        weak var pool: HTTP1Pool?
        do {
            let client = ClientTestEnvironment.makeClient(.ownHTTP1)
            #expect(try await client.send(HTTPRequest(method: "GET", url: server.url())).status == 200)
            // The pool was made when the request started; the loop only reads the table after that.
            pool = client.loop.http1?.pools.values.first
            #expect(pool != nil)
            client.shutdown()
        }
        // A Bool, not the pool: a failed expectation reflects its values, and a leaked pool's connections point at
        // the freed engine.
        let freed = pool == nil
        #expect(freed, "an endpoint's pool (and its idle connection) outlived the stopped client")
    }
}
