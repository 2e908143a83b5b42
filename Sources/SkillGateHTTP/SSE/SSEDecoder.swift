import SkillGateCore

/// Decodes a `text/event-stream` body fed in arbitrary chunks into events.
///
/// A value-type state machine: feed it the bytes as they arrive from the network, in any split
/// (one byte at a time gives the same events as the whole body). Handles LF, CRLF and CR line
/// ends (also a CRLF split across two chunks), multi-line `data:`, `event:`, `id:`, `retry:`,
/// comments, a leading byte-order mark, and UTF-8 characters split across chunks (lines are
/// decoded only once complete).
public struct SSEDecoder: Sendable {
    /// Lines that are neither fields nor comments (some providers send a bare JSON error body
    /// after the events); kept, up to `maxStrayBytes`, so an adapter can report them.
    public private(set) var strayText: String = ""
    /// Upper bound of one line, to stop an endless line from using unbounded memory.
    public let maxLineBytes: Int
    public static let maxStrayBytes = 65_536

    private var line: [UInt8] = []
    private var lastWasCR = false
    private var atStart = true
    private var data: String = ""
    private var hasData = false
    private var eventType: String?
    private var lastId: String?
    private var retry: Int?
    private var lineTooLong = false

    public init(maxLineBytes: Int = 16 * 1024 * 1024) {
        self.maxLineBytes = maxLineBytes
    }

    /// Feeds the next chunk of the body and returns the events it completed.
    public mutating func feed(_ bytes: [UInt8]) -> [SSEEvent] {
        bytes.withUnsafeBufferPointer { feed(buffer: $0) }
    }

    /// Feeds a chunk from any byte sequence.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [SSEEvent] {
        feed(Array(bytes))
    }

    /// Feeds a chunk from a raw buffer (the fast path for network data).
    public mutating func feed(_ buffer: UnsafeRawBufferPointer) -> [SSEEvent] {
        feed(buffer: buffer.bindMemory(to: UInt8.self))
    }

    /// Scans for line ends and copies whole runs of bytes, rather than one byte at a time.
    public mutating func feed(buffer: UnsafeBufferPointer<UInt8>) -> [SSEEvent] {
        var events: [SSEEvent] = []
        var i = 0
        var runStart = 0
        let n = buffer.count
        guard let base = buffer.baseAddress else { return events }
        while i < n {
            i = ByteScan.lineEnd(in: base, from: i, to: n)
            guard i < n else { break }
            let b = buffer[i]
            if b == 0x0A, lastWasCR, i == runStart {  // the LF of a CRLF (possibly split across chunks)
                lastWasCR = false
                i += 1
                runStart = i
                continue
            }
            let run = UnsafeBufferPointer(rebasing: buffer[runStart..<i])
            lastWasCR = (b == 0x0D)
            if line.isEmpty && run.count <= maxLineBytes {
                processLine(run, into: &events)  // the whole line is in this chunk: no copy
            } else {
                appendToLine(run)
                endLine(into: &events)
            }
            i += 1
            runStart = i
        }
        if runStart < n {
            appendToLine(UnsafeBufferPointer(rebasing: buffer[runStart..<n]))
            lastWasCR = false
        }
        return events
    }

    private mutating func appendToLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        let room = maxLineBytes - line.count
        if bytes.count <= room {
            line.append(contentsOf: bytes)
        } else {
            if room > 0 { line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<room])) }
            lineTooLong = true
        }
    }

    /// Ends the stream. A trailing event that was not closed by a blank line is returned too
    /// (providers sometimes omit the last blank line); a trailing partial line is processed first.
    public mutating func finish() -> [SSEEvent] {
        var events: [SSEEvent] = []
        if !line.isEmpty { endLine(into: &events) }
        if hasData { events.append(dispatch()) }
        return events
    }

    /// Processes the line collected across chunks.
    private mutating func endLine(into events: inout [SSEEvent]) {
        let collected = line
        collected.withUnsafeBufferPointer { processLine($0, into: &events) }
        line.removeAll(keepingCapacity: true)
        lineTooLong = false
    }

    /// Processes one complete line (without its line end).
    private mutating func processLine(_ whole: UnsafeBufferPointer<UInt8>, into events: inout [SSEEvent]) {
        var bytes = whole
        if atStart {
            atStart = false
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            }
        }
        if bytes.isEmpty {
            if hasData { events.append(dispatch()) } else { eventType = nil }
            return
        }
        if bytes[0] == UInt8(ascii: ":") { return }  // comment
        let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        let nameEnd = colon ?? bytes.count
        var valueStart = colon.map { $0 + 1 } ?? bytes.count
        if valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart...]), as: UTF8.self)
        switch FieldName(UnsafeBufferPointer(rebasing: bytes[0..<nameEnd])) {
        case .data:
            if hasData {
                data += "\n"
                data += value
            } else {
                data = value
            }
            hasData = true
        case .event:
            eventType = value
        case .id:
            if !value.contains("\0") { lastId = value }
        case .retry:
            if let ms = Int(value), ms >= 0 { retry = ms }
        case .unknown:
            if strayText.utf8.count < Self.maxStrayBytes {
                if !strayText.isEmpty { strayText += "\n" }
                strayText += String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    private mutating func dispatch() -> SSEEvent {
        let event = SSEEvent(event: eventType, data: data, id: lastId, retry: retry)
        data = ""
        hasData = false
        eventType = nil
        retry = nil
        return event
    }

    private enum FieldName {
        case data, event, id, retry, unknown

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            if bytes.elementsEqual("data".utf8) { self = .data }
            else if bytes.elementsEqual("event".utf8) { self = .event }
            else if bytes.elementsEqual("id".utf8) { self = .id }
            else if bytes.elementsEqual("retry".utf8) { self = .retry }
            else { self = .unknown }
        }
    }
}
