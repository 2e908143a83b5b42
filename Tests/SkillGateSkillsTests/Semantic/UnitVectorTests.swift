import Testing
@testable import SkillGateSkills

@Suite struct UnitVectorTests {
    @Test func aVectorIsScaledToLengthOneInDouble() throws {
        let v = try UnitVector.normalised([3, 0, 4]).get()
        #expect(abs(v[0] - 0.6) < 1e-7 && v[1] == 0 && abs(v[2] - 0.8) < 1e-7, "\(v)")
        // Values whose squares overflow a Float but not a Double, with a length a Float holds.
        #expect(UnitVector.unit([3e38, 0, 0]) == [1, 0, 0])
        #expect(UnitVector.unit([1e-30, 0, 0]) == [1, 0, 0])
    }

    @Test func aUnitVectorIsKeptAsItIs() {
        let v: [Float] = [0.5, -0.5, 0.5, 0.5]
        #expect(UnitVector.unit(v) == v)
    }

    @Test(arguments: [
        ([3e38, 3e38, 3e38], UnitVector.Problem.nonFiniteLength),
        ([0, 0, 0], .zeroLength),
        ([.nan, 1, 0], .nonFiniteValue),
        ([.infinity, 1, 0], .nonFiniteValue),
    ] as [([Float], UnitVector.Problem)])
    func aVectorWithoutAFiniteNonZeroLengthIsRefused(_ vector: [Float], _ problem: UnitVector.Problem) {
        #expect(UnitVector.normalised(vector) == .failure(problem))
        #expect(UnitVector.unit(vector) == nil)
    }

    @Test func anAnswerIsRefusedNamingItsFirstBadVector() {
        let result = UnitVector.normalised([[1, 0], [3e38, 3e38], [0, 0]], model: "acme/embed-1")
        guard case .failure(let e) = result else { Issue.record("expected a refusal"); return }
        #expect(e.kind == .malformed && e.reason == "embeddings_malformed" && e.model == "acme/embed-1")
        #expect(e.message.hasPrefix("vector 1 has a length that is not finite"), "\(e.message)")
    }
}
