import Testing
@testable import SkillGateServer

@Suite struct RequestIdGeneratorTests {
    @Test func idsAreReqAnd24LowercaseHexDigits() {
        for _ in 0..<100 {
            let id = RequestIdGenerator.next()
            #expect(id.hasPrefix("req_"))
            #expect(id.utf8.count == 28)
            #expect(id.utf8.dropFirst(4).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, "\(id)")
        }
    }

    @Test func idsAreUniqueAndDoNotLookSequential() {
        var seen = Set<String>()
        var previous = RequestIdGenerator.next()
        var similarNeighbours = 0
        for _ in 0..<100_000 {
            let id = RequestIdGenerator.next()
            #expect(seen.insert(id).inserted, "duplicate id \(id)")
            // A counter would share most leading digits with its predecessor.
            if zip(id.utf8, previous.utf8).prefix(while: { $0 == $1 }).count > 4 + 8 { similarNeighbours += 1 }
            previous = id
        }
        #expect(similarNeighbours < 10)
    }
}
