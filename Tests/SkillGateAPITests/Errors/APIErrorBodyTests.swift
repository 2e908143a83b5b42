import Foundation
import SkillGateAPI
import Testing

@Suite("APIErrorBody")
struct APIErrorBodyTests {
    @Test func decodesTheGatewaysErrorWithItsAdditions() throws {
        let json = #"{"error":{"message":"demo: down","type":"upstream_error","param":null,"code":"upstream_unavailable","provider":"demo","upstream_status":503}}"#
        let body = try JSONDecoder().decode(APIErrorBody.self, from: Data(json.utf8))
        #expect(body == APIErrorBody(error: .init(type: "upstream_error", message: "demo: down", code: "upstream_unavailable",
                                                  provider: "demo", upstreamStatus: 503)))
    }

    @Test func encodesInTheOpenAIOrderWithoutAbsentFields() throws {
        let body = APIErrorBody(error: .init(type: "invalid_request_error", message: "`model` is unknown", param: "model"))
        #expect(String(decoding: try CompactJSONEncoder().encode(body), as: UTF8.self)
            == #"{"error":{"type":"invalid_request_error","message":"`model` is unknown","param":"model"}}"#)
    }
}
