/// What a demand phrase says about how much a request asks for.
public enum DemandCategory: Int, Sendable, Hashable, CaseIterable {
    /// Joins several asks into one request: "and also", "then", "as well as", "并且", "另外".
    case asks
    /// States a requirement or a limit: "must", "at most", "budget", "不超过", "必须".
    case constraints
    /// Asks for a long or complete answer: "detailed", "report", "walk me through", "详细", "方案".
    case outputLength
    /// Asks for a short answer: "briefly", "one sentence", "一句话", "简单".
    case brevity
    /// A task small models do well whatever its length: translate, rewrite, summarise, greet, thank.
    case lightIntent
    /// Legal and contractual review: "clause", "lease", "liability", "合同", "条款".
    case legal
    /// Performance and scale: "latency", "index", "p99", "million rows", "索引", "并发".
    case performance
    /// Counting, probability and money maths stated in words: "how many ways", "expected value", "月供", "期望".
    case quantitative
    /// Expert domains where a wrong answer costs: medicine, tax, regulation: "diagnosis", "tax", "指南", "税务".
    case expertDomain

    /// The feature name in explanations and model files.
    public var name: String {
        switch self {
        case .asks: "asks"
        case .constraints: "constraints"
        case .outputLength: "output_length"
        case .brevity: "brevity"
        case .lightIntent: "light_intent"
        case .legal: "legal"
        case .performance: "performance"
        case .quantitative: "quantitative"
        case .expertDomain: "expert_domain"
        }
    }
}

/// The demand phrases, English and Chinese. English entries are lowercase words or phrases of up
/// to three words matched as whole words; Chinese entries match anywhere (two to four characters).
/// Written from general knowledge of how people phrase requests, before the evaluation corpus
/// existed; the learned weights decide how much each category counts.
public enum DemandLexicon {
    public static let entries: [(text: String, category: DemandCategory)] =
        asks.map { ($0, .asks) } + constraints.map { ($0, .constraints) } + outputLength.map { ($0, .outputLength) }
        + brevity.map { ($0, .brevity) } + lightIntent.map { ($0, .lightIntent) } + legal.map { ($0, .legal) }
        + performance.map { ($0, .performance) } + quantitative.map { ($0, .quantitative) }
        + expertDomain.map { ($0, .expertDomain) }

    static let asks = [
        "also", "then", "and then", "as well as", "additionally", "plus", "include", "including", "and include",
        "in addition", "afterwards", "finally", "next", "first", "second", "third", "both", "along with",
        "并且", "同时", "另外", "还要", "以及", "然后", "再来", "此外", "最后", "首先", "其次", "第一", "第二", "并给出", "并说明",
    ]
    static let constraints = [
        "must", "should", "at least", "at most", "no more than", "less than", "more than", "within", "under", "budget",
        "without", "only", "exactly", "each", "every", "maximum", "minimum", "deadline", "requirement", "requirements",
        "constraint", "constraints", "never", "cannot", "can't", "avoid", "ensure", "guarantee", "limit", "prefer",
        "必须", "不超过", "至少", "最多", "以内", "不能", "不要", "要求", "预算", "每个", "每天", "只能", "限制", "确保", "保证",
        "避免", "不得", "优先", "前提",
    ]
    static let outputLength = [
        "detailed", "in detail", "comprehensive", "thorough", "thoroughly", "full", "complete", "report", "essay",
        "article", "proposal", "document", "plan", "outline", "walk me through", "explain each", "each step",
        "in depth", "end to end", "production", "production ready", "tests", "unit tests", "test cases",
        "详细", "完整", "全面", "报告", "方案", "文章", "论文", "计划", "逐条", "逐一", "每一", "深入", "系统地", "测试用例", "单元测试",
    ]
    static let brevity = [
        "briefly", "brief", "short", "quick", "quickly", "one sentence", "one line", "one word", "simple", "tl dr",
        "in a word", "just", "real quick",
        "一句话", "简单", "简短", "简要", "快速", "一下", "随便",
    ]
    static let lightIntent = [
        "translate", "translation", "rewrite", "rephrase", "concise", "condense", "tweet", "trim", "reword", "paraphrase", "proofread", "grammar", "typo", "typos", "spelling", "polish",
        "summarize", "summarise", "summary", "tldr", "shorten", "shorter", "more formal", "more casual", "friendlier",
        "thanks", "thank you", "hello", "hi", "hey", "good morning", "joke", "synonym", "what is", "who is", "define",
        "meaning", "stand for", "how do you say", "spell", "format", "capitalize", "convert",
        "翻译", "润色", "改写", "改成", "总结", "概括", "缩短", "谢谢", "你好", "笑话", "是什么", "什么意思", "怎么说",
        "错别字", "语法", "换个说法", "英文", "中文", "早上好", "晚安", "哈哈", "缩写", "精简", "压缩", "翻一下", "改短",
        "一条微博", "通顺", "口语化", "正式一点",
    ]
    static let legal = [
        "contract", "clause", "clauses", "lease", "agreement", "liability", "indemnify", "indemnification", "terminate",
        "termination", "breach", "landlord", "tenant", "deposit", "warranty", "compliance", "gdpr", "nda", "lawsuit",
        "legal", "jurisdiction", "non compete", "severance",
        "合同", "条款", "协议", "违约", "押金", "房东", "租客", "赔偿", "法律", "劳动法", "仲裁", "免责", "违约金", "竞业",
    ]
    static let performance = [
        "latency", "throughput", "performance", "index", "indexes", "query plan", "explain analyze", "p99", "p95", "qps",
        "million", "millions", "billion", "scale", "scalable", "bottleneck", "slow query", "cache", "sharding", "partition",
        "索引", "慢查询", "性能", "并发量", "吞吐", "延迟", "百万", "千万", "上亿", "瓶颈", "分库分表", "高并发", "缓存",
    ]
    static let quantitative = [
        "how many ways", "expected value", "expectation", "recurrence", "distribution", "variance", "combinatorics",
        "interest rate", "monthly payment", "amortization", "compound interest", "npv", "irr", "present value",
        "期望", "分布", "方差", "排列", "组合", "利率", "利息", "月供", "等额本息", "等额本金", "复利", "概率分布",
    ]
    static let expertDomain = [
        "diagnosis", "symptom", "symptoms", "treatment", "dosage", "guideline", "guidelines", "clinical", "tax", "taxes",
        "regulation", "regulatory", "audit", "accounting", "ifrs", "gaap", "visa", "immigration", "insurance claim",
        "诊断", "症状", "治疗", "剂量", "指南", "临床", "税务", "个税", "监管", "审计", "会计", "外汇", "签证", "医保", "病史",
    ]
}
