#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// `/v1/agent`: every event an `AgentEvent`. Unknown event names are skipped (a newer gateway may
/// add events); a known event that does not fit its schema, or a body that ends before
/// `run.completed` or `run.failed`, is a `malformedResponse`.
struct AgentEventDecoding: StreamDecoding {
    private var ended = false

    mutating func decode(_ sse: ServerSentEvent) throws -> AgentEvent? {
        guard let name = sse.event else { return nil }  // SkillGate names every event
        do {
            let event = try AgentEvent(name: name, data: Data(sse.data.utf8))
            if event.endsRun { ended = true }
            return event
        } catch .unknownEvent {
            return nil
        } catch {
            throw SkillGateClientError.malformedResponse(error.description)
        }
    }

    func finish() throws {
        guard ended else {
            throw SkillGateClientError.malformedResponse(
                "the event stream ended before run.completed or run.failed (the gateway stopped or the connection was cut; its log says which)")
        }
    }
}
