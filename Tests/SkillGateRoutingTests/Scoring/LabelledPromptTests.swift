import Testing
import SkillGateCore
@testable import SkillGateRouting

/// The router's acceptance table: labelled prompts across both tiers, English and Chinese,
/// scored with the default weights and no scenario lean (a scenario whose default is `auto`).
/// A change to the lexicon or the weights that flips one of these is a behaviour change: fix
/// the change, or relabel with a reason in docs/decisions/0005-auto-routing.md.
@Suite struct LabelledPromptTests {
    static let light: [String] = [
        // English
        "Hi! How are you today?",
        "What's the capital of France?",
        "Translate 'good morning' into Spanish.",
        "Give me a synonym for happy.",
        "Write a short birthday message for my sister.",
        "What time zone is Tokyo in?",
        "Summarize this paragraph in one sentence: The meeting was moved to Thursday because the room was booked.",
        "Why is the sky blue?",
        "Convert 5 miles to kilometers.",
        "List three fruits that are red.",
        "Fix the typo in this sentence: 'I recieved the package.'",
        "What does HTTP stand for?",
        "How can I improve my running pace?",
        "Can you approve my vacation request for Friday?",
        "Open the analytics dashboard link for me.",
        "Explain what a closure is in JavaScript.",
        "Why does my code crash when the list is empty?",
        "Solve 3x + 5 = 20.",
        // Chinese
        "你好，今天天气怎么样？",
        "把这句话翻译成英文：我喜欢喝咖啡。",
        "北京是哪个国家的首都？",
        "给我讲一个简短的笑话。",
        "为什么天空是蓝色的？",
        "帮我写一句生日祝福。",
        "推荐三本适合周末读的小说。",
        "一公里等于多少米？",
        "解释一下什么是闭包。",
    ]

    static let strong: [String] = [
        // English
        "Prove that the square root of 2 is irrational.",
        "Derive the closed form of the sum of the first n squares, step by step.",
        "Analyze the time complexity of this algorithm and optimize it:\n```python\nfor i in range(n):\n    for j in range(n):\n        total += a[i] * a[j]\n```",
        "Explain step-by-step why quicksort has O(n log n) average complexity.",
        "Design the architecture for a multi-region payment system and analyze the trade-offs between consistency and availability.",
        "Find the eigenvalues of the matrix [[2,1],[1,2]] and prove that they are real.",
        "Here is a stack trace from our Go service with a deadlock; debug it and explain the race condition:\n```\ngoroutine 1 [semacquire]:\nsync.runtime_Semacquire(...)\n```",
        "Refactor this function to remove the race condition and analyse whether the fix is correct:\n```swift\nfunc bump() { counter += 1 }\n```",
        "Compute the integral of x^2 e^x dx and show each step of the derivation.",
        "Think carefully: compare three caching strategies for our API and recommend one with a rigorous justification.",
        "Minimize 3x + 2y subject to x + y >= 4 and x, y >= 0, then prove the solution is optimal.",
        "Write a rigorous proof of the Cauchy-Schwarz inequality.",
        "PROVE THAT THERE ARE INFINITELY MANY PRIMES.",
        "Use the \\int and \\frac notation to evaluate the integral and justify every step.",
        // Chinese
        "证明根号2是无理数。",
        "请一步一步推导二次方程的求根公式。",
        "分析这段代码的时间复杂度并优化它：\n```js\nfor (let i = 0; i < n; i++) { for (let j = 0; j < n; j++) { s += a[i] * a[j] } }\n```",
        "请详细分析分布式系统中一致性和可用性的权衡，并给出架构设计方案。",
        "求矩阵的特征值，并证明它们都是实数。",
        "这段程序出现了死锁，请调试并解释并发问题的原因。",
        "用数学归纳法证明 1+2+...+n = n(n+1)/2。",
        "为什么快速排序的平均复杂度是 O(n log n)？请一步一步推导。",
        "计算 ∫ x·e^x dx，并写出推导过程。",
    ]

    static let labelled: [(String, RouteTier)] = light.map { ($0, .light) } + strong.map { ($0, .strong) }

    @Test func tableIsLargeAndBalanced() {
        #expect(Self.labelled.count >= 40)
        #expect(Self.light.count >= 15 && Self.strong.count >= 15)
        let chinese = Self.labelled.filter { $0.0.unicodeScalars.contains { $0.value >= 0x4E00 && $0.value <= 0x9FFF } }
        #expect(chinese.filter { $0.1 == .light }.count >= 5 && chinese.filter { $0.1 == .strong }.count >= 5)
    }

    @Test(arguments: labelled)
    func routesToTheLabelledTier(_ prompt: String, _ expected: RouteTier) {
        let request = ChatRequest(model: "auto", messages: [Message(role: .user, text: prompt)])
        let decision = TierScorer().decide(TaskFeatures(request: request))
        #expect(decision.tier == expected, "\(decision.headerValue()) for: \(prompt)")
        #expect(decision.source == .score)
    }
}
