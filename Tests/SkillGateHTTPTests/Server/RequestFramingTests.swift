@testable import SkillGateHTTP
import Testing

@Suite("RequestFraming")
struct RequestFramingTests {
    @Test func plainFramingIsRead() throws {
        #expect(try RequestFraming.check(["Content-Length": "42"]).get() == .length(42))
        #expect(try RequestFraming.check(["content-length": " 7\t"]).get() == .length(7))
        #expect(try RequestFraming.check(["Content-Length": "0"]).get() == RequestFraming.Body.none)
        #expect(try RequestFraming.check(["Transfer-Encoding": "Chunked"]).get() == .chunked)
        #expect(try RequestFraming.check(["Host": "x"]).get() == RequestFraming.Body.none)
    }

    @Test(arguments: ["+2", "-2", "2,2", "2 2", "0x10", "", "1e3", "١٢", "9999999999999999999"])
    func malformedContentLengthIs400(_ value: String) {
        guard case .failure(let refusal) = RequestFraming.check(["Content-Length": value]) else {
            Issue.record("\(value) was accepted")
            return
        }
        #expect(refusal.status == 400)
    }

    @Test func ambiguousFramingIsRefused() {
        let duplicate = HTTPHeaders([("Content-Length", "2"), ("content-length", "2")])
        let both = HTTPHeaders([("Transfer-Encoding", "chunked"), ("Content-Length", "2")])
        #expect(throws: RequestFraming.Refusal.self) { try RequestFraming.check(duplicate).get() }
        #expect((try? RequestFraming.check(both).get()) == nil)
        if case .failure(let refusal) = RequestFraming.check(["Transfer-Encoding": "gzip, chunked"]) {
            #expect(refusal.status == 501)
        } else {
            Issue.record("an unsupported transfer coding was accepted")
        }
    }

    /// A body in a content coding is refused with 415 and `Accept-Encoding: identity` before it is read (decision 0170):
    /// handed over as sent, compressed JSON would be answered as malformed JSON.
    @Test(arguments: [
        [("Content-Encoding", "gzip"), ("Content-Length", "20")],
        [("content-encoding", "identity, br"), ("Transfer-Encoding", "chunked")],
        [("Content-Encoding", ""), ("Content-Encoding", "deflate"), ("Content-Length", "3")],
    ])
    func aBodyInAContentCodingIs415(_ fields: [(String, String)]) throws {
        guard case .failure(let refusal) = RequestFraming.check(HTTPHeaders(fields)) else {
            Issue.record("\(fields) was accepted")
            return
        }
        #expect(refusal.status == 415)
        #expect(refusal.headers["accept-encoding"] == "identity")
        #expect(refusal.message.contains("send the body uncompressed"), "\(refusal.message)")
    }

    /// No coding (`identity`, an empty value) is a plain body, and a coding named without a body refuses nothing.
    @Test func identityOrNoBodyIsNotRefused() throws {
        #expect(try RequestFraming.check(HTTPHeaders([("Content-Encoding", "Identity"), ("Content-Length", "5")])).get() == .length(5))
        #expect(try RequestFraming.check(HTTPHeaders([("Content-Encoding", " "), ("Content-Length", "5")])).get() == .length(5))
        #expect(try RequestFraming.check(HTTPHeaders([("Content-Encoding", "gzip")])).get() == RequestFraming.Body.none)
        #expect(try RequestFraming.check(HTTPHeaders([("Content-Encoding", "gzip"), ("Content-Length", "0")])).get() == RequestFraming.Body.none)
    }
}

@Suite("ConnectionLimiter")
struct ConnectionLimiterTests {
    @Test func capsTotalAndPerAddressAndForgetsReleased() {
        let limiter = ConnectionLimiter(maxTotal: 3, maxPerAddress: 2)
        #expect(limiter.admit("a") == .admitted)
        #expect(limiter.admit("a") == .admitted)
        #expect(limiter.admit("a") == .overPerAddress)
        #expect(limiter.admit("b") == .admitted)
        #expect(limiter.admit("c") == .overTotal)
        limiter.release("a")
        #expect(limiter.admit("c") == .admitted)
        #expect(limiter.openCount == 3)
    }

    @Test func zeroOrNilMeansNoCap() {
        let limiter = ConnectionLimiter(maxTotal: 0, maxPerAddress: nil)
        for _ in 0..<1000 { #expect(limiter.admit("a") == .admitted) }
    }
}
