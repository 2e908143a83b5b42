import Testing
import SkillGateCore
@testable import SkillGateRouting

@Suite struct RouterTrainerTests {
    /// A toy task: strong prompts ask for proofs and tests, light ones greet and translate.
    static let examples: [RoutingExample] = {
        let strong = ["Prove that the sum of two odd numbers is even, and include a formal argument",
                      "Implement a thread-safe queue with unit tests and explain the invariants",
                      "Derive the closed form step by step, then prove it by induction",
                      "Design a sharded cache, must handle a million keys, include benchmarks",
                      "证明存在无穷多个素数，并给出详细推导", "设计一个高并发的缓存方案，必须支持百万级请求，并写单元测试"]
        let light = ["hi there, how are you", "translate good night into French", "thanks, that helps",
                     "what does HTTP stand for", "你好呀", "把这句话翻译成英文：我饿了"]
        return strong.enumerated().map { RoutingExample(id: "s\($0.offset)", request: .init(model: "auto", messages: [Message(role: .user, text: $0.element)]), strong: true) }
            + light.enumerated().map { RoutingExample(id: "l\($0.offset)", request: .init(model: "auto", messages: [Message(role: .user, text: $0.element)]), strong: false) }
            + [RoutingExample(id: "m0", request: .init(model: "auto", messages: [Message(role: .user, text: "Implement a lock-free queue"),
                                                                                 Message(role: .assistant, text: "Here it is."),
                                                                                 Message(role: .user, text: "now add tests")]), strong: true)]
    }()

    @Test func fitsASeparableSet() {
        var options = RouterTrainer.Options()
        options.hashBits = 12
        let model = RouterTrainer(options: options).fit(Self.examples)
        let scorer = LearnedTierScorer(model: model)
        for x in Self.examples {
            #expect((scorer.probability(x.request) >= 0.5) == x.strong, "\(x.id)")
        }
    }

    @Test func theSameDataAndOptionsGiveTheSameWeights() {
        var options = RouterTrainer.Options()
        options.hashBits = 12
        let a = RouterTrainer(options: options).fit(Self.examples)
        let b = RouterTrainer(options: options).fit(Self.examples.reversed().reversed())
        #expect(a.named == b.named && a.hashed == b.hashed && a.bias == b.bias)
    }

    @Test func aHeavierPenaltyShrinksTheNGramWeights() {
        var loose = RouterTrainer.Options(), tight = RouterTrainer.Options()
        loose.hashBits = 12; tight.hashBits = 12
        tight.l2Hashed = 0.5
        let a = RouterTrainer(options: loose).fit(Self.examples), b = RouterTrainer(options: tight).fit(Self.examples)
        let norm = { (m: RouterModel) in m.hashed.reduce(Float(0)) { $0 + $1 * $1 } }
        #expect(norm(b) < norm(a))
    }

    @Test func crossValidationPredictsEveryExampleOnce() {
        var options = RouterTrainer.Options()
        options.hashBits = 12
        options.iterations = 50
        let p = RouterTrainer(options: options).crossValidate(Self.examples, folds: 3)
        #expect(p.count == Self.examples.count)
        #expect(p.allSatisfy { $0 > 0 && $0 < 1 })
    }

    @Test func readsJSONLinesWithPromptsMessagesToolsAndOptions() throws {
        let text = """
        {"id":"a","label":"strong","prompt":"prove it","lang":"en","kind":"math","split":"dev"}

        {"label":"light","messages":[{"role":"system","content":"be nice"},{"role":"user","content":"hi"}],"tools":[{"name":"t","description":"d"}],"json_output":true,"max_tokens":10}
        """
        let xs = try RoutingExample.parseLines(Array(text.utf8), source: "f.jsonl")
        #expect(xs.count == 2)
        #expect(xs[0].id == "a" && xs[0].strong && xs[0].lang == "en" && xs[0].kind == "math" && xs[0].split == "dev")
        #expect(xs[1].id == "f.jsonl:3" && !xs[1].strong)
        #expect(xs[1].request.messages.count == 2 && xs[1].request.tools.map(\.name) == ["t"])
        #expect(xs[1].request.maxTokens == 10 && xs[1].request.responseFormat?["type"]?.stringValue == "json_object")
    }

    @Test(arguments: [
        (#"{"label":"medium","prompt":"x"}"#, "f:1: \"label\" must be"),
        (#"{"label":"light"}"#, "f:1: needs \"prompt\" or \"messages\""),
        (#"{"label":"light","messages":[{"role":"bot","content":"x"}]}"#, "messages[0].role"),
        ("{oops", "f:1: not valid JSON"),
    ])
    func badLinesNameTheLineAndTheProblem(_ line: String, _ reason: String) {
        do {
            _ = try RoutingExample.parseLines(Array(line.utf8), source: "f")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }
}
