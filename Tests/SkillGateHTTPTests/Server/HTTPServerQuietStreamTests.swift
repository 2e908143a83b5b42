import Foundation
import Testing
@testable import SkillGateHTTP

/// A streamed reply that stays quiet longer than the connection's inactivity timeout (the shortest of the head, body
/// and keep-alive timeouts) is not cut: that timeout is for reading a request, and a client waiting for the next event
/// of a stream (a traffic tail, a model thinking) sends nothing.
@Suite struct HTTPServerQuietStreamTests {
    @Test func aStreamQuietPastTheInactivityTimeoutIsNotCut() async throws {
        try await withTestServer({ $0.headerTimeout = .milliseconds(500); $0.idleKeepAliveTimeout = .milliseconds(500) }, handler: { _, responder in
            try? await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
            try? await responder.write(Array("data: first\n\n".utf8))
            try? await Task.sleep(for: .milliseconds(1500))
            try? await responder.write(Array("data: second\n\n".utf8))
        }) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                client.send(rawGET("/tail"))
                return client.readResponse()
            }
            #expect(response?.bodyText == "data: first\n\ndata: second\n\n", "\(String(describing: response?.bodyText))")
        }
    }

    /// The read timeout comes back once the stream is done: the connection serves its next request, and then, idle,
    /// is closed after the keep-alive timeout as any other.
    @Test func afterTheStreamTheConnectionServesAndTimesOutAsBefore() async throws {
        try await withTestServer({ $0.headerTimeout = .milliseconds(500); $0.idleKeepAliveTimeout = .milliseconds(500) }, handler: { request, responder in
            if request.path == "/tail" {
                try? await responder.startStream(status: 200, headers: [:])
                try? await Task.sleep(for: .milliseconds(1200))
                try? await responder.write(Array("late".utf8))
            } else {
                responder.respond(status: 200, headers: [:], body: Array("next".utf8))
            }
        }) { _, port in
            let (stream, next, closedAfter) = try await RawHTTPClient.blocking { () -> (String?, String?, Duration) in
                let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                client.send(rawGET("/tail"))
                let stream = client.readResponse()?.bodyText
                client.send(rawGET("/next"))
                let next = client.readResponse()?.bodyText
                let idleSince = ContinuousClock.now
                _ = client.readResponse()   // nothing comes: ends at the server's close (or the 10 s receive timeout)
                return (stream, next, ContinuousClock.now - idleSince)
            }
            #expect(stream == "late")
            #expect(next == "next")
            #expect(closedAfter < .seconds(5), "the idle connection was not closed by the keep-alive timeout (\(closedAfter))")
        }
    }

    /// Before any reply: a handler that takes longer than the read timeouts to answer (a slow model, a stream waiting
    /// for its first event) is not cut either; the server does not read while the handler works.
    @Test func aSlowAnswerIsNotCutByTheReadTimeouts() async throws {
        try await withTestServer({ $0.headerTimeout = .milliseconds(500); $0.idleKeepAliveTimeout = .milliseconds(500) }, handler: { request, responder in
            try? await Task.sleep(for: .milliseconds(1500))
            if request.path == "/stream" {
                try? await responder.startStream(status: 200, headers: [:])
                try? await responder.write(Array("first".utf8))
            } else {
                responder.respond(status: 200, headers: [:], body: Array("whole".utf8))
            }
        }) { _, port in
            let (whole, stream) = try await RawHTTPClient.blocking { () -> (String?, String?) in
                let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                client.send(rawGET("/whole"))
                let whole = client.readResponse()?.bodyText
                let second = try RawHTTPClient(port: port, receiveTimeout: 10)
                second.send(rawGET("/stream"))
                return (whole, second.readResponse()?.bodyText)
            }
            #expect(whole == "whole")
            #expect(stream == "first")
        }
    }
}
