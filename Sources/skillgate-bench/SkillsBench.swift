import Foundation
import SkillGateCore
import SkillGateSkills

/// Skills on the request path: the relevance cut of 50 visible skills to the top 8 (BM25, and BM25
/// with the built-in word vectors), and the
/// validation of a typical call's arguments. References in the same run: serialising the 50 tool
/// schemas (every request pays it when it is encoded upstream) and parsing the arguments JSON.
func runSkillsBench() async throws {
    let tools = benchSkills(50)
    let messages = [
        Message(role: .system, text: "You are a helpful assistant."),
        Message(role: .user, text: "I fly to Tokyo next week."),
        Message(role: .assistant, text: "Nice! How can I help?"),
        Message(role: .user, text: "Book a flight on Friday and remind me about the hotel. 还有明天东京的天气怎么样？"),
    ]
    var kept = 0
    let cold = measureMicros(iterations: 500) {
        let candidates = tools.map { SkillCandidate(tool: $0) }
        kept = SkillRelevance.select(candidates, query: SkillRelevance.query(from: messages), limit: 8, pinned: ["current_time"]).kept.count
    }
    precondition(kept == 8, "the cut must keep 8 skills")
    let cache = SkillDocumentCache()
    let cut = measureMicros(iterations: 2000) {
        let candidates = tools.map { SkillCandidate(tool: $0) }
        kept = SkillRelevance.select(candidates, query: SkillRelevance.query(from: messages), limit: 8, pinned: ["current_time"], cache: cache).kept.count
    }
    guard let vectors = WordVectorScorer.builtIn else { fatalError("the built-in word-vector table does not load") }
    let withVectors = measureMicros(iterations: 2000) {
        // As SkillRanker does it: one document-cache lookup names the set for the vector cache.
        let candidates = tools.map { SkillCandidate(tool: $0) }
        let entries = cache.entries(for: candidates)
        let similarities = vectors.similarities(messages: messages, candidates: candidates, identities: entries.identities)
        kept = SkillRelevance.select(candidates, documents: entries.documents, query: SkillRelevance.query(from: messages), limit: 8,
                                     pinned: ["current_time"], semantic: similarities, lexicalWeight: WordVectorScorer.lexicalWeight).kept.count
    }
    precondition(kept == 8, "the cut must keep 8 skills")
    let serialise = measureMicros(iterations: 2000) {
        for t in tools { _ = JSONValue.object(["name": .string(t.name), "description": .string(t.description ?? ""), "parameters": t.parameters]).serializedBytes() }
    }
    // `skill_ranking.examples`: the request against 50 skills' dozen example requests each (384 dimensions, as
    // multilingual-e5-small), half English, half Chinese; the vectors are cached, this is the per-request arithmetic.
    var generator = SystemRandomNumberGenerator()
    func vector() -> [Float] { (0..<384).map { _ in Float.random(in: -1...1, using: &generator) } }
    let exampleVectors = (0..<50).map { _ in (0..<12).map { i in (vector: vector(), text: i < 6 ? "remind me at six tonight" : "今晚六点提醒我") } }
    let requestVector = vector()
    var scored = 0
    let exampleScores = measureMicros(iterations: 500) {
        scored = ExampleSimilarity.scores(query: requestVector, queryText: "don't let me forget the rent", examples: exampleVectors).count
    }
    precondition(scored == 50, "one score per skill")
    report("BM25 top-8 of 50 skills, documents cached", cut, unit: "µs")
    report("BM25 + word vectors top-8 of 50 skills, cached (the default without embeddings)", withVectors, unit: "µs")
    report("BM25 top-8 of 50 skills, cold (tokenise all)", cold, unit: "µs")
    report("serialise the 50 tool definitions (reference)", serialise, unit: "µs")
    report("example scores of 50 skills × 12 examples, 384 dimensions (skill_ranking.examples)", exampleScores, unit: "µs")

    let schema: JSONValue = [
        "type": "object",
        "properties": [
            "origin": ["type": "string", "description": "IATA code"], "destination": ["type": "string", "description": "IATA code"],
            "date": ["type": "string", "description": "YYYY-MM-DD"], "passengers": ["type": "integer", "minimum": 1, "maximum": 9],
            "cabin": ["type": "string", "enum": ["economy", "premium", "business", "first"]],
            "flexible": ["type": "boolean"], "stops": ["type": "array", "items": ["type": "string"], "maxItems": 3],
        ],
        "required": ["origin", "destination", "date"],
    ]
    let arguments = #"{"origin":"ZRH","destination":"HND","date":"2026-12-04","passengers":"2","cabin":"economy","flexible":true,"stops":["DXB"]}"#
    var coerced = 0
    let validate = try measureMicros(iterations: 20000) {
        coerced = try ArgumentValidator.validate(arguments: arguments, schema: schema, tool: "book_flight").coercions.count
    }
    precondition(coerced == 1, "\"2\" for passengers must be coerced")
    let parse = try measureMicros(iterations: 20000) { _ = try JSONValue.parse(arguments) }
    report("validate a 7-argument call (1 coercion)", validate, unit: "µs")
    // The same call checked against the schema as an answer's check finds it on an offered tool: kept as text (a
    // client's tools from the tool-list cache, a server-side skill's from the registry).
    let keptTool = ToolDefinition(name: "book_flight", schema: ToolSchema(keepingTextOf: schema))
    let validateKept = try measureMicros(iterations: 20000) {
        coerced = try ArgumentValidator.validate(arguments: arguments, schema: keptTool.parameters, tool: "book_flight").coercions.count
    }
    report("  the same, the schema kept as text", validateKept, unit: "µs")
    // The common case: arguments that fit as they are (nothing coerced, nothing rebuilt).
    let fitting = arguments.replacingOccurrences(of: #""passengers":"2""#, with: #""passengers":2"#)
    let validateFitting = try measureMicros(iterations: 20000) {
        coerced = try ArgumentValidator.validate(arguments: fitting, schema: schema, tool: "book_flight").coercions.count
    }
    precondition(coerced == 0, "nothing to coerce")
    report("  a call that fits as it is (no coercion)", validateFitting, unit: "µs")
    report("parse the arguments JSON only (reference)", parse, unit: "µs")
}

/// `count` skills with realistic names and descriptions.
private func benchSkills(_ count: Int) -> [ToolDefinition] {
    let verbs = ["get", "list", "create", "update", "delete", "search", "send", "book", "cancel", "translate"]
    let nouns = ["weather", "calendar_event", "email", "flight", "hotel", "reminder", "note", "contact", "invoice", "playlist",
                 "document", "stock_quote", "news", "recipe", "route"]
    var out = [ToolDefinition(name: "current_time", description: "The current date and time in a time zone")]
    var i = 0
    while out.count < count {
        let verb = verbs[i % verbs.count], noun = nouns[(i / verbs.count + i) % nouns.count]
        let name = "\(verb)_\(noun)_\(i)"
        let text = "\(verb.capitalized) a \(noun.replacingOccurrences(of: "_", with: " ")) for the user. Use it when the user asks to \(verb) their \(noun.replacingOccurrences(of: "_", with: " ")) (天气, 航班, 提醒 and similar requests in Chinese are matched by keywords)."
        out.append(ToolDefinition(name: name, description: text, parameters: ["type": "object", "properties": ["query": ["type": "string"]], "required": ["query"]]))
        i += 1
    }
    return out
}
