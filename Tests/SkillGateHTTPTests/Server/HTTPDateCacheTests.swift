import Foundation
import Testing
@testable import SkillGateHTTP

/// The `Date` header the loops format once a second (decision 0047).
@Suite("HTTP Date header")
struct HTTPDateCacheTests {
    @Test(arguments: [
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),   // RFC 9110's example
        (946_684_800, "Sat, 01 Jan 2000 00:00:00 GMT"),
        (1_709_251_199, "Thu, 29 Feb 2024 23:59:59 GMT"),
        (4_102_444_800, "Fri, 01 Jan 2100 00:00:00 GMT"),
    ])
    func formatsIMFFixdate(_ seconds: Int, _ expected: String) {
        #expect(String(decoding: HTTPDateCache.format(time_t(seconds)), as: UTF8.self) == expected)
    }

    /// Every response has exactly one `Date`, the current one; a handler's own is kept instead.
    @Test func responsesCarryOneCurrentDate() async throws {
        try await withTestServer({ _ in }, handler: { request, responder in
            let headers: HTTPHeaders = request.path == "/own" ? ["Date": "Sun, 06 Nov 1994 08:49:37 GMT"] : [:]
            responder.respond(status: 200, headers: headers, body: Array("ok".utf8))
        }) { _, port in
            // The server reads `time()`, glibc's coarse clock, which can trail `Date()` by a tick across a second's
            // boundary (a stress run saw the header a second before `Date()`'s): the lower bound reads the same clock.
            let before = Double(time(nil))
            let (plain, own) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
                let plain = client.readResponse()
                client.send("GET /own HTTP/1.1\r\nHost: x\r\n\r\n")
                return (plain, client.readResponse())
            }
            let after = Date().timeIntervalSince1970
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = try #require(plain?.header("Date").flatMap(formatter.date(from:)), "\(String(describing: plain?.headers))")
            // The header has whole seconds: between the second the exchange began in and its end.
            #expect(date.timeIntervalSince1970 >= before && date.timeIntervalSince1970 <= after, "\(date) not within [\(before), \(after)]")
            #expect(own?.header("Date") == "Sun, 06 Nov 1994 08:49:37 GMT")
            for response in [plain, own] {
                #expect(response?.headers.filter { $0.0.lowercased() == "date" }.count == 1, "\(String(describing: response?.headers))")
            }
        }
    }
}
