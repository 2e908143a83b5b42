import Foundation
import SkillGateClient
import Testing

@Suite struct SkillGateClientTests {
    @Test func theTokenIsInNoDescription() {
        let token = "sgk_secret0123456789"
        let client = SkillGateClient(baseURL: URL(string: "http://127.0.0.1:8080")!, token: token,
                                     configuration: .init(scenario: "assistant"))
        var dumped = ""
        dump(client, to: &dumped)
        for text in [String(describing: client), String(reflecting: client), dumped, "\(client)"] {
            #expect(!text.contains(token))
            #expect(text.contains("127.0.0.1:8080"))
        }
    }

    @Test(arguments: [
        (SkillGateClientError.unauthorized(message: "unknown token"), 401, "skillgate tokens create"),
        (.forbidden(message: "scenario x is not allowed"), 403, "scenario x is not allowed"),
        (.rateLimited(retryAfter: .seconds(3), message: "slow down"), 429, "retry in 3 s"),
        (.upstream(status: 504, message: "demo: timeout"), 504, "demo: timeout"),
        (.badRequest(status: 400, message: "`messages` is missing"), 400, "`messages` is missing"),
        (.malformedResponse("not JSON"), nil, "not JSON. Check that the base URL points at a SkillGate gateway"),
    ] as [(SkillGateClientError, Int?, String)])
    func errorsKeepTheMessageAndSayWhatToDo(_ error: SkillGateClientError, _ status: Int?, _ text: String) {
        #expect(error.status == status)
        #expect(error.description.contains(text))
        #expect(error.localizedDescription == error.description)
    }
}
