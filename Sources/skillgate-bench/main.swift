// skillgate-bench: micro-benchmarks that print figures (never timed unit tests).
// Usage: swift run -c release skillgate-bench [NAME ...]   (no names: run all)
import Foundation

let benchmarks: [(name: String, run: () async throws -> Void)] = [
    ("json", runJSONBench),
    ("prompt-tools", runPromptToolsBench),
    ("openai-chat", runOpenAIChatBench),
    ("responses", runResponsesBench),
    ("responses-store", runResponsesStoreBench),
    ("anthropic-messages", runAnthropicBench),
    ("tokens", runTokenBench),
    ("ledger", runLedgerBench),
    ("gemini", runGeminiBench),
    ("http-client", runHTTPClientBench),
    ("router", runRouterBench),
    ("skills", runSkillsBench),
    ("resilience", runResilienceBench),
    ("mcp", runMCPBench),
    ("agent-events", runAgentEventsBench),
]

let wanted = Set(CommandLine.arguments.dropFirst())
for b in benchmarks where wanted.isEmpty || wanted.contains(b.name) {
    print("== \(b.name)")
    try await b.run()
}
