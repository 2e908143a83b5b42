@testable import SkillGateHTTP
import Glibc
import Testing

/// A stream head handed over ahead (`prepareStreamHead`) is written by the loop between its turns, and
/// `startPreparedStream` sends it: the same bytes `startStream` sends with the same fields (decision 0087).
@Suite struct HTTPServerPreparedHeadTests {
    /// How the handler starts its stream.
    enum Start: String, CaseIterable, Sendable {
        /// `startStream` with the fields.
        case plain
        /// `prepareStreamHead`, a suspension (the loop ends its turn and writes the head), then `startPreparedStream`.
        case writtenAhead
        /// `prepareStreamHead`, then `startPreparedStream` at once: the loop had no turn, so the head is made then.
        case madeAtStart
    }

    /// A stream's fields as the gateway sends them (chunked), and a handler's that measured its body, with fields the
    /// server drops (its own framing, a value that would inject a line) and a `Connection: close`.
    static let fieldSets: [HTTPHeaders] = [
        ["content-type": "text/event-stream", "x-request-id": "req_0123", "x-skillgate-model": "demo/demo-light",
         "cache-control": "no-cache", "x-accel-buffering": "no"],
        ["content-type": "text/plain", "content-length": "2", "transfer-encoding": "gzip", "x-bad": "a\r\nInjected: yes",
         "connection": "close", "date": "Tue, 01 Dec 2026 00:00:00 GMT"],
    ]

    /// One GET whose handler streams "ok" after starting as `start`; the reply's fields (Date's value left out), its body,
    /// and how many streams started with a head written ahead.
    static func stream(_ start: Start, _ fields: HTTPHeaders) async throws -> (fields: [String], body: String, ahead: Int) {
        try await withTestServer({ $0.loops = 1 }, handler: { _, responder in
            switch start {
            case .plain:
                try? await responder.startStream(status: 200, headers: fields)
            case .writtenAhead:
                responder.prepareStreamHead { fields }
                try? await Task.sleep(for: .milliseconds(20))
                try? await responder.startPreparedStream(status: 200)
            case .madeAtStart:
                responder.prepareStreamHead { fields }
                try? await responder.startPreparedStream(status: 200)
            }
            try? await responder.write(Array("ok".utf8))
            responder.end()
        }) { server, port in
            let before = server.statistics.streamsStartedWithHeadsWrittenAhead
            let response = try await RawHTTPClient.blocking { () -> RawHTTPResponse? in
                let raw = try RawHTTPClient(port: port, receiveTimeout: 10)
                raw.send(rawGET("/"))
                return raw.readResponse()
            }
            let fields = (response?.headers ?? []).map { name, value in name.lowercased() == "date" ? "date: <now>" : "\(name): \(value)" }
            return (fields, response?.bodyText ?? "", server.statistics.streamsStartedWithHeadsWrittenAhead - before)
        }
    }

    @Test(arguments: [Start.writtenAhead, .madeAtStart], 0..<2)
    func aPreparedHeadIsTheSameHeadOnTheWire(_ start: Start, _ fieldSet: Int) async throws {
        let plain = try await Self.stream(.plain, Self.fieldSets[fieldSet])
        let prepared = try await Self.stream(start, Self.fieldSets[fieldSet])
        #expect(plain.body == "ok" && prepared.body == "ok")
        #expect(prepared.fields == plain.fields, "\(prepared.fields) against \(plain.fields)")
        #expect(plain.fields.filter { $0.lowercased().hasPrefix("date:") }.count == 1)
        #expect(!plain.fields.contains { $0.lowercased().hasPrefix("injected") || $0.lowercased().hasPrefix("x-bad") })
        #expect(prepared.ahead == (start == .writtenAhead ? 1 : 0), "heads written ahead and used: \(prepared.ahead)")
        #expect(plain.ahead == 0)
    }

    @Test func startingAPreparedStreamWithoutAHeadIsAMisuse() async throws {
        try await withTestServer({ $0.loops = 1 }, handler: { _, responder in
            do {
                try await responder.startPreparedStream(status: 200)
                responder.respond(status: 500, headers: [:], body: Array("started".utf8))
            } catch let error as HTTPServerError {
                responder.respond(status: 200, headers: [:], body: Array("\(error.kind)".utf8))
            } catch {
                responder.respond(status: 500, headers: [:], body: Array("\(error)".utf8))
            }
        }) { _, port in
            let response = try await RawHTTPClient.blocking { () -> RawHTTPResponse? in
                let raw = try RawHTTPClient(port: port, receiveTimeout: 10)
                raw.send(rawGET("/"))
                return raw.readResponse()
            }
            #expect(response?.status == 200 && response?.bodyText == "responderMisuse", "\(String(describing: response?.bodyText))")
        }
    }
}
