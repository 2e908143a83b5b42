import Testing
import SkillGateHTTP
@testable import SkillGateProviders

@Suite struct DeploymentTests {
    @Test(arguments: [
        (AuthStyle.bearer, "authorization", "Bearer sk-test"),
        (AuthStyle.xApiKey, "x-api-key", "sk-test"),
        (AuthStyle.xGoogApiKey, "x-goog-api-key", "sk-test"),
    ])
    func putsTheKeyInTheProviderHeader(auth: AuthStyle, header: String, value: String) {
        let d = Deployment(providerId: "p", model: "m", baseURL: "http://127.0.0.1:1/v1/", auth: auth, apiKey: "sk-test")
        #expect(d.requestHeaders(streaming: false)[header] == value)
        #expect(d.baseURL == "http://127.0.0.1:1/v1")
    }

    @Test func descriptionNeverContainsTheKey() {
        let d = Deployment(providerId: "p", model: "m", baseURL: "http://x", auth: .bearer, apiKey: "sk-secret-value")
        #expect(!d.description.contains("sk-secret-value"))
        #expect(!String(describing: d).contains("sk-secret-value"))
    }
}
