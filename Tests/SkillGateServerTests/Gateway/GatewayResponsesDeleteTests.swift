import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// `DELETE /v1/responses/{id}` through a running gateway (decision 0101): the token that kept a response forgets it, so
/// it can no longer be continued nor retrieved; another token, an unknown id and a second deletion get the same 404.
@Suite(.serialized) struct GatewayResponsesDeleteTests {
    typealias Harness = GatewayLoopbackTests.Harness

    @Test func theTokenThatKeptAResponseDeletesIt() async throws {
        let h = try Harness()
        let first = try await h.post("/v1/responses", #"{"model":"light","input":"Remember 7.","store":true}"#)
        #expect(first.status == 200)
        let id = try #require(try JSONValue.parse(first.body)["id"]?.stringValue)
        let other = try h.server.services.tokens.create(name: "someone-else").token

        // Another token's deletion is refused like an unknown id's, and the response is kept.
        let foreign = try await h.http.send(HTTPRequest(method: "DELETE", url: h.base + "/v1/responses/" + id,
                                                        headers: ["authorization": "Bearer \(other)"]))
        #expect(foreign.status == 404)
        let stillThere = try await h.post("/v1/responses", #"{"model":"light","input":"Which number?","store":false,"previous_response_id":"\#(id)"}"#)
        #expect(stillThere.status == 200, "\(stillThere.bodyText)")

        let deleted = try await h.get("/v1/responses/" + id, method: "DELETE")
        #expect(deleted.status == 200)
        #expect(try JSONValue.parse(deleted.body) == ["id": .string(id), "object": "response", "deleted": true])

        let continued = try await h.post("/v1/responses", #"{"model":"light","input":"Which number?","previous_response_id":"\#(id)"}"#)
        #expect(continued.status == 404 && continued.bodyText.contains("previous_response_id"), "\(continued.bodyText)")

        let again = try await h.get("/v1/responses/" + id, method: "DELETE")
        let error = try JSONValue.parse(again.body)["error"]
        #expect(again.status == 404)
        #expect(error?["param"]?.stringValue == "response_id")
        #expect(error?["message"]?.stringValue?.contains("nothing was deleted") == true, "\(again.bodyText)")
        // A repeated deletion (a retry whose first answer was lost) is the likeliest case: the message names it, and says
        // that nothing is left to do (decision 0128).
        #expect(error?["message"]?.stringValue?.contains("was deleted already") == true, "\(again.bodyText)")
        #expect(error?["message"]?.stringValue?.contains("nothing more to do") == true, "\(again.bodyText)")

        let retrieve = try await h.get("/v1/responses/" + id)
        #expect(retrieve.status == 404 && retrieve.bodyText.contains("was deleted"), "\(retrieve.bodyText)")

        let log = await h.log()
        await h.stop()
        #expect(log.contains(#""status":200"#) && log.contains(#""surface":"responses""#))
    }

    @Test func aDeletionWithoutATokenIs401() async throws {
        let h = try Harness()
        let r = try await h.http.send(HTTPRequest(method: "DELETE", url: h.base + "/v1/responses/resp_1", headers: [:]))
        await h.stop()
        #expect(r.status == 401)
    }
}

private extension HTTPResponse {
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
