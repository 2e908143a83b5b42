import Testing
import Synchronization
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer
import SkillGateTestSupport

/// A selector model double: per target, an answer, an error or a stall; records what it was asked.
final class SelectorModelDouble: Sendable {
    enum Behaviour: Sendable {
        case answer(String)
        case fail(GatewayError)
        case stall(Duration)
    }

    private let behaviours: [String: Behaviour]
    private let asked = Mutex<[(target: String, request: ChatRequest)]>([])

    init(_ behaviours: [String: Behaviour]) { self.behaviours = behaviours }

    /// The targets asked, in order.
    var targets: [String] { asked.locked { $0.map(\.target) } }
    /// The requests sent, in order.
    var requests: [ChatRequest] { asked.locked { $0.map(\.request) } }

    func selector(_ targets: [String], candidates: Int = 15, timeoutMs: Int = 60_000) -> SkillSelector {
        SkillSelector(settings: GatewayConfig.Selector(model: "light", candidates: candidates, timeoutMs: timeoutMs),
                      targets: targets.map { ResilienceFixtures.target($0) }) { [self] target, request in
            asked.locked { $0.append((target.provider.id, request)) }
            switch behaviours[target.provider.id] ?? .answer(#"{"tools": []}"#) {
            case .answer(let text):
                return ChatResponse(id: "s", model: request.model, content: [.text(text)], finishReason: .stop,
                                    usage: Usage(inputTokens: 120, outputTokens: 9))
            case .fail(let error):
                throw error
            case .stall(let d):
                try await Task.sleep(for: d)
                return ChatResponse(id: "s", model: request.model, content: [.text(#"{"tools": []}"#)], finishReason: .stop)
            }
        }
    }
}

@Suite struct SkillSelectorTests {
    /// Eight tools; the request is about music, which only `play_music` does, but in words it does not use.
    static let candidates = [
        SkillCandidate(name: "get_weather", description: "Current weather and forecast for a city"),
        SkillCandidate(name: "send_email", description: "Send an email to a contact"),
        SkillCandidate(name: "create_event", description: "Create a calendar event"),
        SkillCandidate(name: "set_reminder", description: "Remind the user at a time"),
        SkillCandidate(name: "translate_text", description: "Translate text between languages"),
        SkillCandidate(name: "play_music", description: "Start playback of a song, album or playlist"),
        SkillCandidate(name: "book_table", description: "Reserve a table at a restaurant"),
        SkillCandidate(name: "calculate", description: "Evaluate an arithmetic expression"),
    ]
    static let messages = [Message(role: .user, text: "put on something by Miles Davis for the email I'm writing")]

    static func ranker(_ double: SelectorModelDouble, targets: [String] = ["sel"], candidates: Int = 15, timeoutMs: Int = 60_000) -> SkillRanker {
        SkillRanker(scorer: nil, wordVectors: WordVectorScorer.builtIn,
                    selector: double.selector(targets, candidates: candidates, timeoutMs: timeoutMs))
    }

    @Test func theSelectorsChoicesTakeTheSlotsFirstAndTheRankingFillsTheRest() async {
        let plain = await SkillRanker.lexical.select(Self.candidates, messages: Self.messages, limit: 3, pinned: [])
        let double = SelectorModelDouble(["sel": .answer(#"{"tools": ["play_music"]}"#)])
        let ranker = Self.ranker(double)
        let r = await ranker.select(Self.candidates, messages: Self.messages, limit: 3, pinned: [])
        #expect(r.selection?.outcome == .chose(["play_music"]) && r.selection?.model == "sel/m")
        #expect(r.cut.kept.contains("play_music") && r.cut.kept.count == 3)
        // The other two slots are the ranking's best two, and the cut keeps its ranking order.
        let rankedWithoutChoice = (plain.cut.kept + plain.cut.cut).sorted { plain.cut.scores[$0]! > plain.cut.scores[$1]! }.filter { $0 != "play_music" }
        #expect(Set(r.cut.kept) == Set(["play_music"] + rankedWithoutChoice.prefix(2)), "\(r.cut) against \(plain.cut)")
        #expect(r.cut.kept == Self.candidates.map(\.name).filter(r.cut.kept.contains), "declaration order")
        #expect(r.cut.cut.count == 5 && !r.cut.blind && r.cut.scores == plain.cut.scores)
        #expect(r.mode == .lexical, "the ranking's own mode is still reported")
        #expect(r.selection?.usage?.inputTokens == 120 && ranker.counters.selected == 1 && ranker.counters.selectorFailures == 0)
    }

    @Test func pinnedSkillsStayAndTheChoiceIsCappedAtTheFreeSlots() async {
        let double = SelectorModelDouble(["sel": .answer(#"{"tools": ["book_table", "calculate", "play_music", "get_weather"]}"#)])
        let r = await Self.ranker(double).select(Self.candidates, messages: Self.messages, limit: 3, pinned: ["send_email"])
        #expect(r.cut.kept == ["send_email", "book_table", "calculate"])
        // The pinned skill is not offered, and the model is told it may pick the two free slots.
        let offered = double.requests.first.map { $0.messages[1].text } ?? ""
        #expect(!offered.contains("send_email") && offered.contains("play_music"))
        #expect(double.requests.first?.messages[0].text.contains("at most 2 names") == true)
    }

    @Test func onlyTheTopCandidatesAreOfferedBestFirst() async {
        let double = SelectorModelDouble(["sel": .answer(#"{"tools": []}"#)])
        let plain = await SkillRanker.lexical.select(Self.candidates, messages: Self.messages, limit: 2, pinned: [])
        let r = await Self.ranker(double, candidates: 4).select(Self.candidates, messages: Self.messages, limit: 2, pinned: [])
        let text = double.requests.first?.messages[1].text ?? ""
        let listed = text.split(separator: "\n").filter { $0.first?.isNumber == true }.map { String($0.split(separator: " ")[1].split(separator: ":")[0]) }
        let best = SkillRanker.rankedOrder(Self.candidates, scores: plain.cut.scores, excluding: []).prefix(4).map { Self.candidates[$0].name }
        #expect(listed == best, "\(text)")
        // Choosing nothing leaves the ranking's cut as it was.
        #expect(r.selection?.outcome == .chose([]) && r.cut == plain.cut)
    }

    @Test func nothingIsAskedWhenNothingIsCut() async {
        let double = SelectorModelDouble([:])
        let r = await Self.ranker(double).select(Array(Self.candidates.prefix(3)), messages: Self.messages, limit: 3, pinned: [])
        let pinnedFill = await Self.ranker(double).select(Self.candidates, messages: Self.messages, limit: 2, pinned: ["get_weather", "calculate"])
        // MCP's tools/list ranks without a conversation; a turn of tool results only has no text either.
        let empty = await Self.ranker(double).select(Self.candidates, messages: [], limit: 3, pinned: [])
        let results = await Self.ranker(double).select(Self.candidates, messages: [Message(role: .user, content: [.toolResult(ToolResult(callId: "c", content: [.text("ok")]))])], limit: 3, pinned: [])
        #expect(r.selection == nil && pinnedFill.selection == nil && empty.selection == nil && results.selection == nil)
        #expect(double.requests.isEmpty)
        #expect(pinnedFill.cut.kept == ["get_weather", "calculate"])
    }

    @Test func aFailingTargetIsFollowedByTheNext() async {
        let double = SelectorModelDouble([
            "first": .fail(GatewayError(domain: .provider, kind: .rateLimited, status: 429, message: "rate limited by provider first; retry later", provider: "first", upstreamStatus: 429)),
            "second": .answer(#"{"tools": ["play_music"]}"#),
        ])
        let r = await Self.ranker(double, targets: ["first", "second"]).select(Self.candidates, messages: Self.messages, limit: 3, pinned: [])
        #expect(double.targets == ["first", "second"])
        #expect(double.requests.map { $0.model } == ["m", "m"], "each target gets its own model id")
        #expect(r.selection?.outcome == .chose(["play_music"]) && r.selection?.model == "second/m" && r.cut.kept.contains("play_music"))
    }

    @Test func whenEveryTargetFailsTheRankingsCutStandsAndSaysWhy() async {
        let plain = await SkillRanker.lexical.select(Self.candidates, messages: Self.messages, limit: 3, pinned: [])
        let error = GatewayError(domain: .provider, kind: .authentication, status: 502, message: "provider only refused the key; check it with `skillgate keys list`",
                                 provider: "only", upstreamStatus: 401)
        let ranker = Self.ranker(SelectorModelDouble(["only": .fail(error)]), targets: ["only"])
        let r = await ranker.select(Self.candidates, messages: Self.messages, limit: 3, pinned: [])
        #expect(r.cut == plain.cut)
        #expect(r.selection?.outcome == .failed(reason: "selector_http_401"))
        #expect(r.selection?.message?.contains("selector model only/m") == true && r.selection?.message?.contains("skillgate keys list") == true)
        #expect(ranker.counters.selectorFailures == 1 && ranker.counters.selected == 0)
    }

    @Test func anAnswerThatIsNotTheAskedForJSONLeavesTheRankingsCut() async {
        let plain = await SkillRanker.lexical.select(Self.candidates, messages: Self.messages, limit: 3, pinned: [])
        let r = await Self.ranker(SelectorModelDouble(["sel": .answer("I'd show the music player.")]))
            .select(Self.candidates, messages: Self.messages, limit: 3, pinned: [])
        #expect(r.cut == plain.cut && r.selection?.outcome == .failed(reason: "selector_unparsable"))
        #expect(r.selection?.message?.contains("{\"tools\": [...]}") == true)
    }

    @Test func aStallingSelectorCostsAtMostItsTimeout() async {
        await onOwnThread {
            let plain = await SkillRanker.lexical.select(Self.candidates, messages: Self.messages, limit: 3, pinned: [])
            let ranker = Self.ranker(SelectorModelDouble(["sel": .stall(.seconds(30))]), timeoutMs: 150)
            let clock = ContinuousClock()
            let started = clock.now
            let r = await ranker.select(Self.candidates, messages: Self.messages, limit: 3, pinned: [])
            let elapsed = clock.now - started
            #expect(r.cut == plain.cut && r.selection?.outcome == .failed(reason: "selector_timeout"))
            #expect(r.selection?.message?.contains("skill_ranking.selector.timeout_ms") == true)
            #expect(elapsed < .seconds(10), "returned at the deadline, not when the model answered: \(elapsed)")
            #expect((r.selection?.milliseconds ?? 0) >= 150)
        }
    }

    @Test func theDecisionHeaderAndLogSayWhatTheSelectorDid() async {
        var decision = SkillDecision(limit: 3)
        decision.declared = 8
        decision.visible = ["a", "b", "c"]
        var ranking = SkillRanking(cut: RelevanceCut(kept: ["a", "b", "c"], cut: ["d"], scores: [:]), mode: .hybrid)
        ranking.selection = SkillSelection(outcome: .chose(["b"]), model: "up/light", usage: Usage(inputTokens: 300, outputTokens: 7), milliseconds: 412.5)
        decision.ranking = ranking
        #expect(decision.header == "visible=a,b,c; max=3; ranking=hybrid; selector=chose")
        var o = JSONObject()
        decision.appendLogFields(to: &o)
        let log = JSONValue.object(o)
        #expect(log["skills_selector"] == "chose" && log["skills_selector_chosen"] == ["b"] && log["skills_selector_model"] == "up/light")
        #expect(log["skills_selector_input_tokens"] == 300 && log["skills_selector_output_tokens"] == 7 && log["skills_selector_ms"]?.doubleValue == 412.5)
        #expect(log["skills_selector_reason"] == nil)

        ranking.selection = SkillSelection(outcome: .failed(reason: "selector_timeout"), message: "too slow", milliseconds: 2000)
        decision.ranking = ranking
        #expect(decision.header == "visible=a,b,c; max=3; ranking=hybrid; selector=failed(selector_timeout)")
        var failed = JSONObject()
        decision.appendLogFields(to: &failed)
        let f = JSONValue.object(failed)
        #expect(f["skills_selector"] == "failed" && f["skills_selector_reason"] == "selector_timeout" && f["skills_selector_error"] == "too slow")
        #expect(f["skills_selector_chosen"] == nil)
    }
}
