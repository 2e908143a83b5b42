import SkillGateCore

/// The stages after prepare, as a surface uses them to answer: the response cache, execute (model calls with retries,
/// fallbacks and escalation), the agent loop for server-side skills, and account (the log line).
struct Answering: Sendable {
    let execute: ExecuteStage
    let agent: AgentRunner
    let accounting: AccountStage
    /// Stored answers of the Responses API (`previous_response_id`).
    let responses: ResponseArchive
    /// The exact-match response cache: looked up before a model call, written with complete answers (decision 0140).
    let responseCache: ResponseCacheStage

    func account(_ ctx: inout RequestContext) { accounting.account(&ctx) }
}
