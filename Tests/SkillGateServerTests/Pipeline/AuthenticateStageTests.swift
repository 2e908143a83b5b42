import Testing
@testable import SkillGateServer

@Suite struct AuthenticateStageTests {
    @Test(arguments: [
        ("Bearer sk_abc", "sk_abc"),
        ("bearer sk_abc", "sk_abc"),
        ("BEARER sk_abc", "sk_abc"),
        ("Bearer   sk_abc \t", "sk_abc"),
        ("Bearer ñandú", "ñandú"),
    ])
    func theTokenFollowsTheSchemeInAnyCase(_ header: String, _ token: String) {
        #expect(AuthenticateStage.bearerToken(header) == token)
    }

    @Test(arguments: ["Basic dXNlcjpwdw==", "Bearer", "Bearer ", "Bearersk_abc", "Béarer sk_abc", "Bearer\tsk_abc", "sk_abc", ""])
    func anotherSchemeIsNone(_ header: String) {
        #expect(AuthenticateStage.bearerToken(header) == nil)
    }

    /// An empty token after the scheme is empty, and the caller then looks for `x-api-key` instead.
    @Test func onlySpacesAfterTheSchemeIsAnEmptyToken() {
        #expect(AuthenticateStage.bearerToken("Bearer    ") == "")
    }
}
