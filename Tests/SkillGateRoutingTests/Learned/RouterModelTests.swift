import Testing
import SkillGateCore
@testable import SkillGateRouting

@Suite struct RouterModelTests {
    @Test func jsonRoundTripKeepsEveryWeight() throws {
        var m = RouterModel(hashBits: 10, bias: -0.25, threshold: 0.4, provenance: "test")
        m[.asks] = 1.5
        m[.lightIntent] = -2.125
        m.hashed[3] = 0.5
        m.hashed[1023] = -0.75
        let back = try RouterModel(bytes: m.json().serializedBytes())
        #expect(back.hashBits == 10 && back.bias == -0.25 && back.threshold == 0.4 && back.provenance == "test")
        #expect(back.named == m.named)
        #expect(back.hashed == m.hashed)
    }

    @Test func roundingKeepsSixSignificantDigits() {
        #expect(RouterModel.rounded(0.123456789) == 0.123457)
        #expect(RouterModel.rounded(-12345.6789) == -12345.7)
        #expect(RouterModel.rounded(0) == 0)
    }

    @Test(arguments: [
        (#"{"format":"other"}"#, "not a SkillGate router model"),
        (#"{"format":"skillgate-router/1","hash_bits":40,"bias":0}"#, "hash_bits"),
        (#"{"format":"skillgate-router/1","hash_bits":10,"bias":0,"threshold":1.5}"#, "threshold"),
        (#"{"format":"skillgate-router/1","hash_bits":10,"bias":0,"named":{"vibes":1},"hashed":{"indices":[],"weights":[]}}"#, "unknown feature \"vibes\""),
        (#"{"format":"skillgate-router/1","hash_bits":10,"bias":0,"named":{},"hashed":{"indices":[5000],"weights":[1]}}"#, "outside 0..<1024"),
        (#"{"format":"skillgate-router/1","hash_bits":10,"bias":0,"named":{},"hashed":{"indices":[1],"weights":[]}}"#, "equal length"),
        ("not json", "not valid JSON"),
    ])
    func badFilesAreRefusedWithTheReason(_ text: String, _ reason: String) {
        do {
            _ = try RouterModel(bytes: Array(text.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func theShippedModelLoadsAndWasTrained() {
        let m = DefaultRouterModel.model
        #expect(m.hashBits == 18)
        #expect(m.provenance.contains("split=dev"))
        #expect(m.hashed.contains { $0 != 0 })
    }
}
