/// A small `text/event-stream` decoder for the URLSession transport (Apple platforms), fed the
/// body in pieces as `URLSession.AsyncBytes` delivers it. Pure Swift, so it builds and is tested on
/// Linux too, where the libcurl transport uses SkillGateHTTP's decoder instead.
///
/// Handles LF, CRLF and CR line ends (a CRLF split between two pieces too), `event:`, multi-line
/// `data:`, comments, a leading byte-order mark, and ignores `id:`, `retry:` and unknown fields.
/// Lines are decoded as UTF-8 only once complete, so a character split between pieces is kept whole.
///
/// A line, and an event's data, are bounded by `maxLineBytes` (as the gateway's own decoder is): bytes of a line past it
/// are dropped, and so are data lines past it, so a server that never ends a line or an event cannot make the app's
/// memory grow without limit. The event then fails to decode, and the stream ends with an error.
struct SSELineDecoder: Sendable {
    /// Upper bound of one line and of one event's data.
    let maxLineBytes: Int
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var atStart = true
    private var event: String?
    private var data: [String] = []
    private var dataBytes = 0

    init(maxLineBytes: Int = 16 * 1024 * 1024) {
        self.maxLineBytes = maxLineBytes
    }

    /// Feeds the next piece of the body; returns the events it completed.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case 0x0A where lastWasCR:  // the LF of a CRLF
                lastWasCR = false
            case 0x0A, 0x0D:
                lastWasCR = byte == 0x0D
                if let event = endLine() { events.append(event) }
            default:
                lastWasCR = false
                if line.count < maxLineBytes { line.append(byte) }
            }
        }
        return events
    }

    /// Ends the body; an event not closed by a blank line is returned too.
    mutating func finish() -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        if !line.isEmpty, let event = endLine() { events.append(event) }
        if !data.isEmpty, let event = endLine() { events.append(event) }
        return events
    }

    /// Processes the collected line; returns the event a blank line completes.
    private mutating func endLine() -> ServerSentEvent? {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        guard !bytes.isEmpty else {
            defer { event = nil; data.removeAll(); dataBytes = 0 }
            return data.isEmpty ? nil : ServerSentEvent(event: event, data: data.joined(separator: "\n"))
        }
        guard bytes.first != UInt8(ascii: ":") else { return nil }  // a comment
        let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
        var valueStart = colon < bytes.endIndex ? bytes.index(after: colon) : colon
        if valueStart < bytes.endIndex, bytes[valueStart] == UInt8(ascii: " ") { valueStart = bytes.index(after: valueStart) }
        let value = String(decoding: bytes[valueStart...], as: UTF8.self)
        switch String(decoding: bytes[..<colon], as: UTF8.self) {
        case "event": event = value
        case "data":
            // Each data line after the first adds its "\n" when joined.
            let added = value.utf8.count + (data.isEmpty ? 0 : 1)
            guard dataBytes + added <= maxLineBytes else { break }
            dataBytes += added
            data.append(value)
        default: break
        }
        return nil
    }
}
