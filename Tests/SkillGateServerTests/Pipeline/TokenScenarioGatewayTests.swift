import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// The scenario of a request that names none, through a running gateway (decision 0103): the token's default (the
/// gateway dropped it when it authenticated the token, so it was never used), else the token's only scenario, else the
/// gateway's `default_scenario`; and what a scoped token is told when none of those is allowed.
@Suite struct TokenScenarioGatewayTests {
    static let chat = #"{"model":"light","messages":[{"role":"user","content":"Hello"}]}"#

    /// A token's scenarios and default, the header sent (nil: none), and the scenario the ledger records or the status.
    @Test(arguments: [
        (["other"], nil, nil, "other"),
        ([], "other", nil, "other"),
        (["chat", "other"], "other", nil, "other"),
        (["chat", "other"], nil, nil, "chat"),
        (["chat", "other"], "other", "chat", "chat"),
        ([], nil, nil, "chat"),
        (["other"], nil, "chat", "403"),
    ] as [([String], String?, String?, String)])
    func aRequestNamingNoScenarioRunsInTheTokensOwn(_ scenarios: [String], _ defaultScenario: String?, _ header: String?, _ expected: String) async throws {
        let h = try TeamHarness(scenarios: #"{"chat":{},"other":{},"third":{}}"#)
        let token = try h.server.services.tokens.create(name: "scoped", scenarios: scenarios, defaultScenario: defaultScenario).token
        var headers: HTTPHeaders = ["content-type": "application/json", "authorization": "Bearer \(token)"]
        if let header { headers.set("x-skillgate-scenario", header) }
        let response = try await h.http.send(HTTPRequest(method: "POST", url: h.base + "/v1/chat/completions", headers: headers, body: Array(Self.chat.utf8)))
        let rows = try await h.ledgerRows()
        await h.stop()
        if expected == "403" {
            #expect(response.status == 403)
        } else {
            #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            #expect(rows.last?["scenario"] == expected)
        }
    }

    /// `/v1/models` without the header works for a token of one scenario too (it was a 403 naming "chat").
    @Test func aTokenOfOneScenarioListsModelsWithoutTheHeader() async throws {
        let h = try TeamHarness(scenarios: #"{"chat":{},"other":{}}"#)
        let token = try h.server.services.tokens.create(name: "scoped", scenarios: ["other"]).token
        let response = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/v1/models", headers: ["authorization": "Bearer \(token)"]))
        await h.stop()
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
    }

    /// A token of several scenarios, none of them the gateway's default and no default of its own, sending none: the 403
    /// says the request named no scenario and how to name one, instead of refusing a scenario the client never named.
    @Test func aTokenOfSeveralScenariosNamingNoneIsToldWhatToSend() async throws {
        let h = try TeamHarness(scenarios: #"{"chat":{},"other":{},"third":{}}"#)
        let token = try h.server.services.tokens.create(name: "scoped", scenarios: ["other", "third"]).token
        let response = try await h.post("/v1/chat/completions", Self.chat, token: token)
        await h.stop()
        let error = try JSONValue.parse(response.body)["error"]
        let message = error?["message"]?.stringValue ?? ""
        #expect(response.status == 403 && error?["type"]?.stringValue == "permission_error")
        #expect(message.contains("this request named no scenario") && message.contains("(other, third)"), "\(message)")
        #expect(message.contains("x-skillgate-scenario: <one of them>") && message.contains("--default-scenario"), "\(message)")
    }
}
