#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch

extension AgentEvent {
    /// The event as one server-sent event: `event: NAME\ndata: JSON\n\n`, the data compact JSON
    /// written by `CompactJSONEncoder` (fields in the order of the API reference).
    public func sseBytes() -> [UInt8] {
        Array("event: \(name.rawValue)\ndata: ".utf8) + dataBytes() + [0x0A, 0x0A]
    }

    /// The event's data (the SSE `data:` line) as compact JSON.
    public func dataBytes() -> [UInt8] {
        do {
            return try CompactJSONEncoder().encode(AnyPayload(self))
        } catch {
            // Not reached: CompactJSONEncoder throws only what a value's `encode(to:)` throws, and
            // neither the payloads nor JSONValue throw. Should it happen, the client reads an error.
            return Array(#"{"error":{"type":"server_error","message":"SkillGate could not encode this event; report it with the gateway's log"}}"#.utf8)
        }
    }

    /// Decodes one server-sent event of the `/v1/agent` stream from its `event:` name and `data:` text.
    ///
    /// - Throws: `AgentEventDecodingError.unknownEvent` for a name this module does not define (a
    ///   newer server may add events: skip them), `.malformed` when the data does not fit the event.
    public init(name: String, data: Data) throws(AgentEventDecodingError) {
        guard let known = Name(rawValue: name) else { throw .unknownEvent(name: name) }
        do {
            self = try Self.decode(known, data, JSONDecoder())
        } catch let error as DecodingError {
            throw .malformed(name: name, reason: error.shortDescription)
        } catch {
            throw .malformed(name: name, reason: "\(error)")
        }
    }

    /// Decodes one server-sent event from its `event:` name and `data:` text.
    public init(name: String, data: String) throws(AgentEventDecodingError) {
        try self.init(name: name, data: Data(data.utf8))
    }

    static func decode(_ name: Name, _ data: Data, _ decoder: JSONDecoder) throws -> AgentEvent {
        switch name {
        case .runStarted: .runStarted(try decoder.decode(RunStarted.self, from: data))
        case .routeSelected: .routeSelected(try decoder.decode(RouteSelected.self, from: data))
        case .skillStarted: .skillStarted(try decoder.decode(SkillStarted.self, from: data))
        case .skillFinished: .skillFinished(try decoder.decode(SkillFinished.self, from: data))
        case .textDelta: .textDelta(try decoder.decode(TextDelta.self, from: data))
        case .toolCall: .toolCall(try decoder.decode(ToolCall.self, from: data))
        case .runCompleted: .runCompleted(try decoder.decode(RunCompleted.self, from: data))
        case .runFailed: .runFailed(try decoder.decode(RunFailed.self, from: data))
        }
    }
}

/// The payload of an event, encoded as itself (no wrapper).
struct AnyPayload: Encodable {
    let event: AgentEvent

    init(_ event: AgentEvent) {
        self.event = event
    }

    func encode(to encoder: any Encoder) throws {
        switch event {
        case .runStarted(let p): try p.encode(to: encoder)
        case .routeSelected(let p): try p.encode(to: encoder)
        case .skillStarted(let p): try p.encode(to: encoder)
        case .skillFinished(let p): try p.encode(to: encoder)
        case .textDelta(let p): try p.encode(to: encoder)
        case .toolCall(let p): try p.encode(to: encoder)
        case .runCompleted(let p): try p.encode(to: encoder)
        case .runFailed(let p): try p.encode(to: encoder)
        }
    }
}
