import Testing
import SkillGateTestSupport
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

    @Test func idsAreUniqueAndDoNotLookSequential() async throws {
        // 100,000 ids are seconds of work in a debug build: made on a thread of its own (`offThePool`), checked here.
        let (duplicates, similarNeighbours) = try await offThePool { () -> ([String], Int) in
            var seen = Set<String>(), duplicates: [String] = []
            var previous = RequestIdGenerator.next()
            var similarNeighbours = 0
            for _ in 0..<100_000 {
                let id = RequestIdGenerator.next()
                if !seen.insert(id).inserted { duplicates.append(id) }
                // A counter would share most leading digits with its predecessor.
                if zip(id.utf8, previous.utf8).prefix(while: { $0 == $1 }).count > 4 + 8 { similarNeighbours += 1 }
                previous = id
            }
            return (duplicates, similarNeighbours)
        }
        #expect(duplicates.isEmpty, "duplicate ids: \(duplicates.prefix(5))")
        #expect(similarNeighbours < 10)
    }
}
