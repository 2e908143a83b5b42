/// The markers the router looks for in the task, English and Chinese.
///
/// Strength 1 markers ask for rigour by themselves ("prove", "证明"); weaker ones ("why",
/// "为什么", "explain") only tip the balance together with others. English entries list their
/// inflections explicitly, because matching is by whole word. Edit here and re-run the router
/// tests (`swift test --filter SkillGateRoutingTests`): the labelled prompts catch regressions.
public enum MarkerLexicon {
    public static let markers: [Marker] = reasoning + math + code + planning

    static let reasoning: [Marker] = [
        .init("prove", .reasoning, 1), .init("proves", .reasoning, 1), .init("proving", .reasoning, 1),
        .init("proof", .reasoning, 1), .init("proofs", .reasoning, 1),
        .init("derive", .reasoning, 1), .init("derives", .reasoning, 1), .init("deriving", .reasoning, 1),
        .init("derivation", .reasoning, 1),
        .init("step by step", .reasoning, 1), .init("show your work", .reasoning, 1), .init("each step", .reasoning, 0.7),
        .init("rigorous", .reasoning, 1), .init("rigorously", .reasoning, 1),
        .init("think carefully", .reasoning, 0.7), .init("think through", .reasoning, 0.7), .init("reason about", .reasoning, 0.6),
        .init("analyse", .reasoning, 0.5), .init("analyze", .reasoning, 0.5), .init("analysing", .reasoning, 0.5),
        .init("analyzing", .reasoning, 0.5), .init("analysis", .reasoning, 0.5),
        .init("justify", .reasoning, 0.5), .init("justification", .reasoning, 0.5),
        .init("trade-off", .reasoning, 0.5), .init("trade-offs", .reasoning, 0.5), .init("tradeoff", .reasoning, 0.5),
        .init("tradeoffs", .reasoning, 0.5),
        .init("compare", .reasoning, 0.4), .init("comparison", .reasoning, 0.4), .init("evaluate", .reasoning, 0.4),
        .init("critique", .reasoning, 0.5), .init("counterexample", .reasoning, 0.8),
        .init("why", .reasoning, 0.3), .init("explain", .reasoning, 0.25),
        .init("证明", .reasoning, 1), .init("推导", .reasoning, 1), .init("一步一步", .reasoning, 1), .init("逐步", .reasoning, 0.7),
        .init("论证", .reasoning, 1), .init("严格", .reasoning, 0.6), .init("分析", .reasoning, 0.5), .init("权衡", .reasoning, 0.5),
        .init("比较", .reasoning, 0.4), .init("评估", .reasoning, 0.4), .init("反例", .reasoning, 0.8),
        .init("为什么", .reasoning, 0.3), .init("解释", .reasoning, 0.25),
    ]

    static let math: [Marker] = [
        .init("theorem", .math, 1), .init("lemma", .math, 1), .init("integral", .math, 1), .init("integrate", .math, 0.8),
        .init("derivative", .math, 0.8), .init("derivatives", .math, 0.8), .init("differential equation", .math, 1),
        .init("eigenvalue", .math, 1), .init("eigenvalues", .math, 1), .init("eigenvector", .math, 1), .init("matrix", .math, 0.5),
        .init("equation", .math, 0.6), .init("equations", .math, 0.6), .init("polynomial", .math, 0.7), .init("probability", .math, 0.6),
        .init("irrational", .math, 0.6), .init("induction", .math, 0.7), .init("closed form", .math, 0.7), .init("inequality", .math, 0.6),
        .init("minimize", .math, 0.5), .init("maximize", .math, 0.5), .init("solve", .math, 0.4), .init("calculate", .math, 0.3),
        .init("\\frac", .math, 0.5), .init("\\int", .math, 0.8), .init("\\sum", .math, 0.5), .init("\\sqrt", .math, 0.5),
        .init("\\lim", .math, 0.8), .init("\\partial", .math, 0.8),
        .init("∫", .math, 0.8), .init("∑", .math, 0.5), .init("√", .math, 0.5), .init("∂", .math, 0.8), .init("∀", .math, 0.6),
        .init("∃", .math, 0.6), .init("≤", .math, 0.3), .init("≥", .math, 0.3),
        .init("定理", .math, 1), .init("引理", .math, 1), .init("积分", .math, 1), .init("导数", .math, 0.8), .init("微分方程", .math, 1),
        .init("特征值", .math, 1), .init("矩阵", .math, 0.5), .init("方程", .math, 0.6), .init("多项式", .math, 0.7),
        .init("概率", .math, 0.6), .init("无理数", .math, 0.6), .init("归纳法", .math, 0.7), .init("不等式", .math, 0.6),
        .init("求根公式", .math, 0.7), .init("求解", .math, 0.4), .init("计算", .math, 0.3),
    ]

    static let code: [Marker] = [
        .init("refactor", .code, 0.7), .init("refactoring", .code, 0.7), .init("debug", .code, 0.6), .init("debugging", .code, 0.6),
        .init("deadlock", .code, 1), .init("race condition", .code, 1), .init("memory leak", .code, 1), .init("stack trace", .code, 0.7),
        .init("segfault", .code, 1), .init("concurrency", .code, 0.7), .init("algorithm", .code, 0.6), .init("algorithms", .code, 0.6),
        .init("time complexity", .code, 0.8), .init("complexity", .code, 0.4), .init("implement", .code, 0.5),
        .init("implementation", .code, 0.5), .init("compile", .code, 0.4), .init("compiler", .code, 0.4), .init("regex", .code, 0.5),
        .init("unit test", .code, 0.4), .init("unit tests", .code, 0.4), .init("bug", .code, 0.4), .init("function", .code, 0.2),
        .init("code", .code, 0.2),
        .init("重构", .code, 0.7), .init("调试", .code, 0.6), .init("死锁", .code, 1), .init("竞态", .code, 1), .init("内存泄漏", .code, 1),
        .init("并发", .code, 0.7), .init("算法", .code, 0.6), .init("复杂度", .code, 0.6), .init("编译", .code, 0.4),
        .init("代码", .code, 0.3), .init("程序", .code, 0.2), .init("函数", .code, 0.2),
    ]

    static let planning: [Marker] = [
        .init("architecture", .planning, 0.7), .init("design", .planning, 0.4), .init("optimize", .planning, 0.7),
        .init("optimise", .planning, 0.7), .init("optimization", .planning, 0.7), .init("optimisation", .planning, 0.7),
        .init("strategy", .planning, 0.5), .init("strategies", .planning, 0.5), .init("scalability", .planning, 0.6),
        .init("migration plan", .planning, 0.7), .init("roadmap", .planning, 0.4),
        .init("架构", .planning, 0.7), .init("设计", .planning, 0.4), .init("优化", .planning, 0.7), .init("策略", .planning, 0.5),
        .init("方案", .planning, 0.4), .init("可扩展", .planning, 0.6),
    ]
}
