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

    /// The head gate asks for a token before the body exactly for these (and hands the mapped endpoint on, so the
    /// handler does not map the path again); health, readiness, metrics and the console's files need none.
    @Test(arguments: [("POST", "/v1/chat/completions", true), ("POST", "/v1/messages", true), ("POST", "/v1/agent", true),
                      ("POST", "/v1/responses", true), ("POST", "/v1/responses/input_tokens", true), ("POST", "/v1/messages/count_tokens", true),
                      ("POST", "/mcp", true), ("GET", "/v1/models", true),
                      ("GET", "/v1/limits", true), ("GET", "/admin/api/tokens", true), ("GET", "/healthz", false),
                      ("GET", "/readyz", false), ("GET", "/metrics", false), ("GET", "/console", false),
                      ("GET", "/console/app.js", false)])
    func endpointsThatNeedATokenBeforeTheirBody(_ method: String, _ path: String, _ needsToken: Bool) throws {
        guard case .success(let endpoint) = Endpoint.accept(method: method, path: path) else {
            Issue.record("\(method) \(path) is not served")
            return
        }
        #expect(endpoint.needsToken == needsToken)
    }

    /// The SDKs' `responses.cancel`, and other methods, are told what is kept and for what, and what is served, not
    /// "no route" (decisions 0096, 0101, 0125, 0127).
    @Test(arguments: [("POST", "/v1/responses/resp_123/cancel"), ("GET", "/v1/responses/"), ("GET", "/v1/responses//input_items"),
                      ("GET", "/v1/responses/a/b/input_items"), ("DELETE", "/v1/responses/")])
    func aStoredResponsesOwnPathSaysWhatIsKept(_ method: String, _ path: String) {
        guard case .failure(let r) = Endpoint.accept(method: method, path: path) else { Issue.record("expected a 404"); return }
        #expect(r.error.status == 404)
        #expect(r.error.message.hasPrefix("\(method) \(path) is not offered") && r.error.message.contains("previous_response_id"), "\(r.error.message)")
        #expect(r.error.message.contains("GET /v1/responses/{id}") && r.error.message.contains("DELETE /v1/responses/{id}"))
        #expect(r.error.message.contains("GET /v1/responses/{id}/input_items"))
    }

    /// Another method on a stored response's own path is a 405 naming the ones it takes, with `allow` (before: a 404, as
    /// if the path were unknown).
    @Test(arguments: ["PUT", "PATCH", "POST"])
    func aStoredResponsesPathRefusesOtherMethodsWith405(_ method: String) {
        guard case .failure(let r) = Endpoint.accept(method: method, path: "/v1/responses/resp_123") else { Issue.record("accepted"); return }
        #expect(r.error.status == 405 && r.allowed == "GET, HEAD, DELETE", "\(r.error.status) \(String(describing: r.allowed))")
        #expect(r.error.message.contains("accepts GET") && r.error.message.contains("DELETE") && r.error.message.contains(method))
    }

    /// `responses.input_items.list` is served (GET, and HEAD as wherever GET is) and needs a token; other methods on its
    /// path are a 405 naming them.
    @Test func aStoredResponsesInputItemsAreServedOnGet() throws {
        for method in ["GET", "HEAD"] {
            guard case .success(let endpoint) = Endpoint.accept(method: method, path: "/v1/responses/resp_123/input_items"),
                  case .storedResponseInputItems = endpoint else { Issue.record("\(method) input_items is not served"); continue }
            #expect(endpoint.needsToken)
        }
        for method in ["POST", "DELETE", "PUT"] {
            guard case .failure(let r) = Endpoint.accept(method: method, path: "/v1/responses/resp_123/input_items") else {
                Issue.record("\(method) input_items was accepted")
                continue
            }
            #expect(r.error.status == 405 && r.allowed == "GET, HEAD" && r.error.param == "method")
        }
    }

    /// `responses.retrieve` and `responses.delete` are served, and need a token before their (empty) body; HEAD is served
    /// as GET is, as on every other endpoint that takes GET (RFC 9110 §9.3.2).
    @Test(arguments: ["GET", "HEAD", "DELETE"])
    func aStoredResponseIsServed(_ method: String) throws {
        guard case .success(let endpoint) = Endpoint.accept(method: method, path: "/v1/responses/resp_123") else {
            Issue.record("\(method) /v1/responses/{id} is not served")
            return
        }
        guard case .storedResponse = endpoint else { Issue.record("\(endpoint)"); return }
        #expect(endpoint.needsToken)
    }

    @Test func anUnknownPathIs404ListingWhatIsServed() {
        guard case .failure(let r) = Endpoint.accept(method: "GET", path: "/v2/chat") else { Issue.record("expected a 404"); return }
        #expect(r.error.status == 404 && r.allowed == nil)
        #expect(r.error.message.contains("POST /v1/chat/completions") && r.error.message.contains("GET /healthz"))
    }

    @Test func aWrongMethodIs405WithTheAllowedOne() {
        guard case .failure(let r) = Endpoint.accept(method: "GET", path: "/v1/messages") else { Issue.record("expected a 405"); return }
        #expect(r.error.status == 405 && r.allowed == "POST" && r.error.param == "method")
        #expect(Endpoint.errorSurface(for: "/v1/messages", headers: [:]).name == "anthropic")
        #expect(Endpoint.errorSurface(for: "/nowhere", headers: [:]).name == "openai")
        #expect(Endpoint.errorSurface(for: "/nowhere", headers: ["anthropic-version": "2023-06-01"]).name == "openai")
        #expect(Endpoint.errorSurface(for: "/v1/models", headers: [:]).name == "openai")
        #expect(Endpoint.errorSurface(for: "/v1/models", headers: ["anthropic-version": "2023-06-01"]).name == "anthropic")
        #expect(Endpoint.errorSurface(for: "/v1/models/fast", headers: ["anthropic-version": "2023-06-01"]).name == "anthropic")
    }

    /// Every endpoint that takes GET takes HEAD too, and its 405 says so (RFC 9110 §10.2.1: Allow lists them all).
    @Test func a405OnAGetEndpointAllowsHeadToo() {
        for path in ["/v1/models", "/healthz", "/console"] {
            guard case .failure(let r) = Endpoint.accept(method: "POST", path: path) else { Issue.record("expected a 405 for \(path)"); return }
            #expect(r.error.status == 405 && r.allowed == "GET, HEAD", "\(path): \(r.allowed ?? "none")")
        }
    }
}
