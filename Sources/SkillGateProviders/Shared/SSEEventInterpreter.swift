import SkillGateCore
import SkillGateHTTP

/// The per-event state machine of a stream translator: it takes each server-sent event with its
/// data as bytes, straight from the SSE decoder's buffer (no `String` is made of it), and adds the
/// canonical events it implies.
protocol SSEEventInterpreter {
    /// Applies one event; throws the `GatewayError` the event means (an error event, bad data).
    mutating func apply(_ event: SSERawEvent, into events: inout [ChatStreamEvent]) throws
}

extension SSEDecoder {
    /// Feeds a chunk of the body and hands each event it completes to `interpreter`. After a
    /// throw, the rest of the chunk is not decoded: stop feeding then.
    mutating func feed(_ bytes: [UInt8], to interpreter: inout some SSEEventInterpreter,
                       into events: inout [ChatStreamEvent]) throws {
        try bytes.withUnsafeBytes { raw in
            try feed(raw) { event in try interpreter.apply(event, into: &events) }
        }
    }

    /// Ends the body, handing the trailing event, if any, to `interpreter`.
    mutating func finish(to interpreter: inout some SSEEventInterpreter, into events: inout [ChatStreamEvent]) throws {
        try finish { event in try interpreter.apply(event, into: &events) }
    }
}
