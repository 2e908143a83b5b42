import Testing
import SkillGateCore
@testable import SkillGateServer

@Suite struct AcceptStageTests {
    @Test(arguments: [("POST", "/v1/chat/completions", "openai"), ("POST", "/v1/messages", "anthropic"), ("POST", "/v1/agent", "agent")])
    func surfacesAreServedByPath(_ method: String, _ path: String, _ surface: String) throws {
        guard case .success(.surface(let s)) = Endpoint.accept(method: method, path: path) else {
            Issue.record("\(path) is not a surface")
            return
        }
        #expect(s.name == surface)
    }

    @Test func getEndpointsAlsoTakeHead() {
        guard case .success(.health) = Endpoint.accept(method: "HEAD", path: "/healthz") else { Issue.record("HEAD /healthz"); return }
        guard case .success(.models) = Endpoint.accept(method: "GET", path: "/v1/models") else { Issue.record("GET /v1/models"); return }
    }

    @Test func anUnknownPathIs404ListingWhatIsServed() {
        guard case .failure(let r) = Endpoint.accept(method: "GET", path: "/v2/chat") else { Issue.record("expected a 404"); return }
        #expect(r.error.status == 404 && r.allowed == nil)
        #expect(r.error.message.contains("POST /v1/chat/completions") && r.error.message.contains("GET /healthz"))
    }

    @Test func aWrongMethodIs405WithTheAllowedOne() {
        guard case .failure(let r) = Endpoint.accept(method: "GET", path: "/v1/messages") else { Issue.record("expected a 405"); return }
        #expect(r.error.status == 405 && r.allowed == "POST" && r.error.param == "method")
        #expect(Endpoint.errorSurface(for: "/v1/messages").name == "anthropic")
        #expect(Endpoint.errorSurface(for: "/nowhere").name == "openai")
    }
}
