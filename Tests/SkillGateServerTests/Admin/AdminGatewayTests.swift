import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// The admin API through a real gateway (decision 0030): who may use it (401 without a valid token, 403 with an
/// ordinary one, and admin-only tokens refused on the chat surfaces), and what it answers.
@Suite struct AdminGatewayTests {
    static func send(_ h: TeamHarness, _ method: String, _ path: String, token: String?, body: String? = nil) async throws -> HTTPResponse {
        var headers: HTTPHeaders = ["content-type": "application/json"]
        if let token { headers.set("authorization", "Bearer \(token)") }
        return try await h.http.send(HTTPRequest(method: method, url: h.base + path, headers: headers, body: body.map { Array($0.utf8) } ?? []))
    }

    static func json(_ r: HTTPResponse) throws -> JSONValue { try JSONValue.parse(r.body) }
    static func message(_ r: HTTPResponse) -> String { (try? json(r))?["error"]?["message"]?.stringValue ?? String(decoding: r.body, as: UTF8.self) }

    static let adminRoutes: [(method: String, path: String)] = [
        ("GET", "/admin/api/whoami"), ("GET", "/admin/api/tokens"), ("POST", "/admin/api/tokens"), ("POST", "/admin/api/tokens/team-app/revoke"),
        ("GET", "/admin/api/usage"), ("GET", "/admin/api/requests"), ("GET", "/admin/api/providers"), ("GET", "/admin/api/traffic"),
    ]

    @Test(arguments: 0..<adminRoutes.count)
    func adminRoutesRefuseAMissingOrInvalidTokenWith401AndAnOrdinaryOneWith403(_ index: Int) async throws {
        let route = Self.adminRoutes[index]
        let h = try TeamHarness()
        defer { Task { await h.stop() } }
        let missing = try await Self.send(h, route.method, route.path, token: nil, body: "{}")
        let invalid = try await Self.send(h, route.method, route.path, token: "sgk_" + String(repeating: "0", count: 43), body: "{}")
        let ordinary = try await Self.send(h, route.method, route.path, token: h.token, body: "{}")
        #expect(missing.status == 401 && invalid.status == 401)
        #expect(ordinary.status == 403)
        #expect(try Self.json(ordinary)["error"]?["type"]?.stringValue == "permission_error")
        #expect(Self.message(ordinary).contains("not an admin token") && Self.message(ordinary).contains("--admin"))
        #expect(try h.server.services.tokens.list().allSatisfy { !$0.isRevoked }, "nothing was done for the refused requests")
    }

    @Test func anAdminOnlyTokenMayNotChatAndAnAdminChatTokenMay() async throws {
        let h = try TeamHarness()
        defer { Task { await h.stop() } }
        let adminOnly = try h.server.services.tokens.create(name: "ops", admin: true, chat: false).token
        let adminChat = try h.server.services.tokens.create(name: "console", admin: true, chat: true).token
        let chat = #"{"model":"light","messages":[{"role":"user","content":"Hello"}]}"#
        let refused = try await Self.send(h, "POST", "/v1/chat/completions", token: adminOnly, body: chat)
        let refusedAgent = try await Self.send(h, "POST", "/v1/agent", token: adminOnly, body: #"{"messages":[{"role":"user","content":"Hi"}]}"#)
        let refusedModels = try await Self.send(h, "GET", "/v1/models", token: adminOnly)
        // `/mcp` runs server-side skills (webhooks carrying secrets among them): a chat surface like the others.
        let toolsList = #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#
        let refusedMCP = try await Self.send(h, "POST", "/mcp", token: adminOnly, body: toolsList)
        let allowedMCP = try await Self.send(h, "POST", "/mcp", token: adminChat, body: toolsList)
        let allowed = try await Self.send(h, "POST", "/v1/chat/completions", token: adminChat, body: chat)
        let adminOnlyOnAdmin = try await Self.send(h, "GET", "/admin/api/whoami", token: adminOnly)
        #expect(refused.status == 403 && refusedAgent.status == 403 && refusedModels.status == 403)
        #expect(refusedMCP.status == 403 && allowedMCP.status == 200)
        #expect(try Self.json(refusedMCP)["error"]?["message"]?.stringValue?.contains("--admin --chat") == true, "\(String(decoding: refusedMCP.body, as: UTF8.self))")
        #expect(try Self.json(refusedMCP)["id"] == 1)
        #expect(Self.message(refused).contains("--admin --chat"))
        #expect(allowed.status == 200)
        #expect(adminOnlyOnAdmin.status == 200)
        #expect(try Self.json(adminOnlyOnAdmin) == ["name": "ops", "admin": true, "chat": false])
    }

    @Test func tokensAreCreatedShownOnceListedAndRevoked() async throws {
        let h = try TeamHarness()
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "console", admin: true).token
        let created = try await Self.send(h, "POST", "/admin/api/tokens", token: admin,
                                          body: #"{"name":"ci-bot","scenarios":["chat"],"limits":{"requests_per_minute":30}}"#)
        #expect(created.status == 201)
        #expect(created.headers["cache-control"] == "no-store")
        let body = try Self.json(created)
        let secret = try #require(body["token"]?.stringValue)
        #expect(body["record"]?["name"]?.stringValue == "ci-bot" && body["record"]?["admin"] == false && body["record"]?["chat"] == true)
        #expect(body["record"]?["limits"]?["requests_per_minute"]?.intValue == 30)
        #expect(h.server.services.tokens.authenticate(secret)?.name == "ci-bot")

        let listed = try await Self.send(h, "GET", "/admin/api/tokens", token: admin)
        let listText = String(decoding: listed.body, as: UTF8.self)
        #expect(try Self.json(listed)["data"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["team-app", "console", "ci-bot"])
        #expect(!listText.contains(secret) && !listText.contains("hash"), "a token's text or hash is never listed")

        let duplicate = try await Self.send(h, "POST", "/admin/api/tokens", token: admin, body: #"{"name":"ci-bot"}"#)
        let unknownScenario = try await Self.send(h, "POST", "/admin/api/tokens", token: admin, body: #"{"name":"x","scenarios":["nope"]}"#)
        let badLimit = try await Self.send(h, "POST", "/admin/api/tokens", token: admin, body: #"{"name":"y","limits":{"requests_per_minute":-1}}"#)
        let notJSON = try await Self.send(h, "POST", "/admin/api/tokens", token: admin, body: "name=z")
        // A model scope with a typo made a token every request refused (decision 0146's documentation round).
        let unknownModel = try await Self.send(h, "POST", "/admin/api/tokens", token: admin, body: #"{"name":"w","models":["ligth"]}"#)
        let knownModel = try await Self.send(h, "POST", "/admin/api/tokens", token: admin, body: #"{"name":"v","models":["light"]}"#)
        #expect(duplicate.status == 409 && Self.message(duplicate).contains("revoke it first"))
        #expect(unknownScenario.status == 400 && Self.message(unknownScenario).contains("configured: chat, other"))
        #expect(badLimit.status == 400 && Self.message(badLimit).contains("requests_per_minute"))
        #expect(notJSON.status == 400 && Self.message(notJSON).contains("send a JSON object like"))
        #expect(unknownModel.status == 400 && Self.message(unknownModel).contains("unknown model \"ligth\""), "\(Self.message(unknownModel))")
        #expect((try? Self.json(unknownModel))?["error"]?["param"]?.stringValue == "models")
        #expect(knownModel.status == 201, "\(Self.message(knownModel))")

        let limits = try await Self.send(h, "PUT", "/admin/api/tokens/ci-bot/limits", token: admin, body: #"{"limits":{"budget_usd_per_day":2}}"#)
        let limitsBody = try Self.json(limits)
        #expect(limits.status == 200 && limitsBody["limits"]?["budget_usd_per_day"]?.doubleValue == 2)
        // A budget meant as "unlimited" (1e13) crashed the gateway on the token's next request (decision 0096). Written
        // with an exponent it is not plain decimal dollars (decision 0103); written out, it is over the largest budget.
        let absurd = try await Self.send(h, "PUT", "/admin/api/tokens/ci-bot/limits", token: admin, body: #"{"limits":{"budget_usd_per_month":1e13}}"#)
        let absurdPlain = try await Self.send(h, "PUT", "/admin/api/tokens/ci-bot/limits", token: admin, body: #"{"limits":{"budget_usd_per_month":10000000000000}}"#)
        #expect(absurd.status == 400 && Self.message(absurd).contains("no sign, exponent") && Self.message(absurd).contains("leave the key out"))
        #expect(absurdPlain.status == 400 && Self.message(absurdPlain).contains("over the largest budget") && Self.message(absurdPlain).contains("leave the key out"))

        let revoked = try await Self.send(h, "POST", "/admin/api/tokens/ci-bot/revoke", token: admin)
        let again = try await Self.send(h, "POST", "/admin/api/tokens/ci-bot/revoke", token: admin)
        let unknown = try await Self.send(h, "POST", "/admin/api/tokens/ghost/revoke", token: admin)
        let revokedBody = try Self.json(revoked)
        #expect(revoked.status == 200 && revokedBody["status"] == "revoked")
        #expect(h.server.services.tokens.authenticate(secret) == nil)
        #expect(again.status == 409 && unknown.status == 404)
    }

    @Test func routesAndMethodsThatDoNotExistSayWhatDoes() async throws {
        let h = try TeamHarness()
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "console", admin: true).token
        let missing = try await Self.send(h, "GET", "/admin/api/nope", token: admin)
        let wrongMethod = try await Self.send(h, "DELETE", "/admin/api/tokens", token: admin)
        let badQuery = try await Self.send(h, "GET", "/admin/api/usage?by=week", token: admin)
        let badDays = try await Self.send(h, "GET", "/admin/api/usage?days=0", token: admin)
        #expect(missing.status == 404 && Self.message(missing).contains("GET /admin/api/usage"))
        #expect(wrongMethod.status == 405 && Self.message(wrongMethod).contains("GET or POST"))
        #expect(wrongMethod.headers["allow"] == "GET, HEAD, POST", "a 405 names every method the route takes")
        #expect(badQuery.status == 400 && Self.message(badQuery).contains("day, token") == false && Self.message(badQuery).contains("token, model, scenario, day"))
        #expect(badDays.status == 400 && Self.message(badDays).contains("1 to 366"))
        // Every query parameter is checked, not only days: before, these were read as their defaults without a word.
        let badLimit = try await Self.send(h, "GET", "/admin/api/requests?limit=-1", token: admin)
        let wordLimit = try await Self.send(h, "GET", "/admin/api/requests?limit=abc", token: admin)
        let badPerDay = try await Self.send(h, "GET", "/admin/api/usage?per_day=yes", token: admin)
        let goodPerDay = try await Self.send(h, "GET", "/admin/api/usage?per_day=false", token: admin)
        #expect(badLimit.status == 400 && wordLimit.status == 400 && Self.message(badLimit).contains("1 to 1000"))
        #expect(badPerDay.status == 400 && Self.message(badPerDay).contains("true or false"))
        #expect(goodPerDay.status == 200)
        // A parameter given twice counted by its last (decision 0096): which one a reader takes is not agreed.
        let twice = try await Self.send(h, "GET", "/admin/api/usage?days=1&by=token&days=5", token: admin)
        #expect(twice.status == 400 && Self.message(twice).contains("query parameter days is given more than once"), "\(Self.message(twice))")
    }

    @Test func usageAndRecentRequestsShowWhatARequestCost() async throws {
        let h = try TeamHarness()
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "console", admin: true).token
        #expect(try await h.post("/v1/chat/completions", #"{"model":"light","messages":[{"role":"user","content":"Hello"}]}"#).status == 200)
        // The harness's clock is in 2026-05: the ledger's rows carry the request's time on it, and the report's window is on it too.
        let byToken = try Self.json(try await Self.send(h, "GET", "/admin/api/usage?by=token&days=2", token: admin))
        let row = try #require(byToken["data"]?.arrayValue?.first { $0["key"] == "team-app" })
        #expect(row["requests"]?.intValue == 1 && (row["cost_usd"]?.doubleValue ?? 0) > 0 && (row["input_tokens"]?.intValue ?? 0) > 0)
        #expect(byToken["data"]?.arrayValue?.contains { $0["key"] == "console" } == false, "admin requests are no ledger rows")

        let perDay = try Self.json(try await Self.send(h, "GET", "/admin/api/usage?by=model&days=2&per_day=true", token: admin))
        let dayRow = try #require(perDay["data"]?.arrayValue?.first)
        #expect(perDay["per_day"] == true && dayRow["key"] == "demo/demo-light" && dayRow["day"]?.stringValue?.count == 10)
        #expect(dayRow["cost_usd"] == row["cost_usd"], "one request, one day: the same sums")

        let recent = try Self.json(try await Self.send(h, "GET", "/admin/api/requests", token: admin))
        let first = try #require(recent["data"]?.arrayValue?.first)
        #expect(first["token"] == "team-app" && first["surface"] == "openai" && first["status"]?.intValue == 200 && first["outcome"] == "ok")
        #expect(first["model"] == "demo/demo-light" && (first["cost_usd"]?.doubleValue ?? 0) == row["cost_usd"]?.doubleValue)
        #expect(recent["data"]?.arrayValue?.count == 1, "admin API calls are not traffic")
    }

    @Test func loadedConfigIsShownWithoutASecret() async throws {
        let webhook = #","server_skills":{"webhooks":{"crm":{"description":"Opens a ticket","url":"https://crm.example.com/hook?key=hooksecret-91b","headers":{"Authorization":"Bearer ${secret:UNUSED_PROVIDER_KEY}"}}}},"skill_packs":{"crm":{"skills":["crm"]}}"#
        let h = try TeamHarness(extraConfig: webhook, scenarios: #"{"chat":{"description":"Plain chat"},"support":{"skill_packs":["crm"],"max_visible_skills":3}}"#)
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "console", admin: true).token
        var everything = ""
        for path in ["scenarios", "providers", "cooldowns", "tokens", "limits", "whoami"] {
            let r = try await Self.send(h, "GET", "/admin/api/" + path, token: admin)
            #expect(r.status == 200, "\(path)")
            everything += String(decoding: r.body, as: UTF8.self)
        }
        #expect(!everything.contains(TeamHarness.providerKey) && !everything.contains("hooksecret") && !everything.contains("crm.example.com"))
        let scenarios = try Self.json(try await Self.send(h, "GET", "/admin/api/scenarios", token: admin))
        let support = try #require(scenarios["scenarios"]?.arrayValue?.first { $0["name"] == "support" })
        #expect(support["skill_packs"] == ["crm"] && support["max_visible_skills"]?.intValue == 3)
        #expect(support["skill_selector"] == false, "no selector is configured")
        #expect(scenarios["server_skills"]?.arrayValue?.map { $0["name"] } == ["crm"])
        let ranking = try #require(scenarios["skill_ranking"])
        #expect(ranking["ranking"] == "lexical" && ranking["word_vectors"] == true && ranking["selector"] == .null && ranking["embedding_model"] == .null)
        #expect(ranking["cuts"] == ["hybrid": 0, "lexical": 0, "lexical_fallback": 0] && ranking["selector_calls"] == ["chose": 0, "failed": 0])
        let providers = try Self.json(try await Self.send(h, "GET", "/admin/api/providers", token: admin))
        let demo = try #require(providers["data"]?.arrayValue?.first { $0["id"] == "demo" })
        #expect(demo["key_needed"] == false && demo["key_set"] == true)
        let cooldowns = try Self.json(try await Self.send(h, "GET", "/admin/api/cooldowns", token: admin))
        #expect(cooldowns["data"]?.arrayValue?.contains { $0["model"] == "demo/demo-light" && $0["cooling_down"] == false } == true)
    }

    /// The gateway caps open traffic tails; one past the cap is its own limit (429), not an upstream's trouble.
    @Test func aTrafficTailPastTheCapIsA429() async throws {
        let h = try TeamHarness()
        let admin = try h.server.services.tokens.create(name: "console", admin: true).token
        let request = HTTPRequest(method: "GET", url: h.base + "/admin/api/traffic", headers: ["authorization": "Bearer \(admin)"])
        var open: [HTTPStreamingResponse] = []
        for _ in 0..<h.server.services.traffic.maxSubscribers { open.append(try await h.http.stream(request)) }
        #expect(open.allSatisfy { $0.status == 200 })
        let refused = try await h.http.send(request)
        #expect(refused.status == 429 && refused.headers["retry-after"] == "5")
        #expect(try Self.json(refused)["error"]?["message"]?.stringValue?.contains("traffic tails are open already") == true)
        open.removeAll()
        await h.stop()
    }

    @Test func theTrafficTailStreamsEachRequestAndEndsAtShutdown() async throws {
        let h = try TeamHarness()
        let admin = try h.server.services.tokens.create(name: "console", admin: true).token
        let tail = try await h.http.stream(HTTPRequest(method: "GET", url: h.base + "/admin/api/traffic", headers: ["authorization": "Bearer \(admin)"]))
        #expect(tail.status == 200 && tail.headers["content-type"] == "text/event-stream")
        var received = "", posted = false, shutdown: Task<(clean: Bool, began: ContinuousClock.Instant), Never>?
        let started = ContinuousClock.now
        // When each step happened, for the failure message (a rare failure under load cut the tail mid-stream).
        var steps: [String] = []
        func step(_ name: String) { steps.append("\(name) at \(ContinuousClock.now - started)") }
        do {
            for try await chunk in tail.body {
                received += String(decoding: chunk, as: UTF8.self)
                if !posted, received.contains("traffic tail open") {
                    posted = true
                    step("tail open")
                    #expect(try await h.post("/v1/chat/completions", #"{"model":"light","messages":[{"role":"user","content":"Hello"}]}"#).status == 200)
                    step("chat answered")
                }
                if shutdown == nil, received.contains("event: request") {
                    step("request event")
                    // The tail would hold the drain open until its grace ran out (60 s here); the shutdown hook ends it at
                    // once. The shutdown's start is taken inside its task: on a loaded two-core run the task itself once
                    // started seconds late.
                    shutdown = Task {
                        let began = ContinuousClock.now
                        return (await h.server.server.shutdown(deadline: .seconds(60)), began)
                    }
                }
            }
        } catch {
            step("tail failed")
            Issue.record("the tail failed: \(error); steps: \(steps); received: \(received); server: \(h.server.server.statistics)")
            await h.stop()
            return
        }
        let tailEnded = ContinuousClock.now
        let outcome = try #require(await shutdown?.value)
        #expect(outcome.clean, "the tail ended before the drain's deadline")
        // Ended by the shutdown hook, not by the drain's deadline (60 s): timed from the shutdown's own start, not from the
        // test's, whose harness and chat request took over 10 s in a loaded parallel run (scripts/stress-tests.sh). Half
        // the deadline leaves a loaded run its margin and still tells the hook from the deadline.
        let sinceShutdown = outcome.began.duration(to: tailEnded)
        #expect(sinceShutdown < .seconds(30), "the tail ended \(sinceShutdown) after the shutdown began; steps: \(steps)")
        let line = try #require(received.split(separator: "\n").first { $0.hasPrefix("data: ") && $0.contains("team-app") })
        let event = try JSONValue.parse(String(line.dropFirst(6)))
        #expect(event["token"] == "team-app" && event["status"]?.intValue == 200 && event["surface"] == "openai")
        #expect(event["fallbacks"]?.intValue == 0 && event["escalations"]?.intValue == 0 && (event["cost_usd"]?.doubleValue ?? 0) > 0)
        await h.stop()
    }
}
