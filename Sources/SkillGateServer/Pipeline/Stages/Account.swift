import SkillGateCore

/// The last stage: the request's log line (and, later, its usage record) once the answer is out.
struct AccountStage: Sendable {
    let log: RequestLog

    /// Writes the request's line with its total time. Called once per request.
    func account(_ ctx: inout RequestContext) {
        ctx.log.totalMs = ctx.elapsedMs
        log.write(ctx.log)
    }
}
