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
