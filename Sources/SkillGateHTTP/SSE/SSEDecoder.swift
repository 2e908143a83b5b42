import SkillGateCore

/// Decodes a `text/event-stream` body fed in arbitrary chunks into events.
///
/// A value-type state machine: feed it the bytes as they arrive from the network, in any split
/// (one byte at a time gives the same events as the whole body). Handles LF, CRLF and CR line
/// ends (also a CRLF split across two chunks), multi-line `data:`, `event:`, `id:`, `retry:`,
/// comments, a leading byte-order mark, and UTF-8 characters split across chunks (lines are
/// decoded only once complete).
///
/// Events come either as `SSEEvent` values (data as a `String`) or, through the overloads that
/// take a closure, as `SSERawEvent`s whose data is handed over as bytes without making a string.
public struct SSEDecoder: Sendable {
    /// Lines that are neither fields nor comments (some providers send a bare JSON error body
    /// after the events); kept, up to `maxStrayBytes`, so an adapter can report them.
    public private(set) var strayText: String = ""
    /// Upper bound of one line, and of one event's data, to stop an endless line or event from using unbounded memory.
    public let maxLineBytes: Int
    public static let maxStrayBytes = 65_536

    private var line: [UInt8] = []
    private var lastWasCR = false
    private var atStart = true
    /// The data lines of the event being collected, joined with "\n" (capacity kept between events).
    private var data: [UInt8] = []
    /// The event's first data line while it still lies in the chunk being scanned: handed over from
    /// there if the event ends in the same chunk, copied into `data` otherwise. `nil` between calls.
    nonisolated(unsafe) private var pendingData: UnsafeBufferPointer<UInt8>?
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
        scan(buffer, repairUTF8: false) { events.append(SSEEvent($0)) }
        return events
    }

    /// Feeds the next chunk of the body and calls `onEvent` for each event it completes, with the
    /// data as bytes (no `String` is made of it). If `onEvent` throws, the error is passed on and
    /// the rest of the chunk is not decoded: stop feeding this decoder then. `onEvent` must not
    /// use this decoder.
    public mutating func feed<E: Error>(_ buffer: UnsafeRawBufferPointer,
                                        onEvent: (SSERawEvent) throws(E) -> Void) throws(E) {
        try scan(buffer.bindMemory(to: UInt8.self), repairUTF8: true, onEvent)
    }

    private mutating func scan<E: Error>(_ buffer: UnsafeBufferPointer<UInt8>, repairUTF8: Bool,
                                         _ onEvent: (SSERawEvent) throws(E) -> Void) throws(E) {
        var i = 0
        var runStart = 0
        let n = buffer.count
        guard let base = buffer.baseAddress else { return }
        defer { keepPendingData() }  // the chunk's bytes are not ours after this call
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
            let complete: Bool
            if line.isEmpty && run.count <= maxLineBytes {
                complete = processLine(run, inChunk: true)  // the whole line is in this chunk: no copy
            } else {
                appendToLine(run)
                complete = endLine()
            }
            if complete { try dispatch(repairUTF8: repairUTF8, onEvent) }
            i += 1
            runStart = i
        }
        if runStart < n {
            appendToLine(UnsafeBufferPointer(rebasing: buffer[runStart..<n]))
            lastWasCR = false
        }
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
        finish(repairUTF8: false) { events.append(SSEEvent($0)) }
        return events
    }

    /// Ends the stream as `finish()` does, calling `onEvent` for the trailing event, if any, with
    /// its data as bytes.
    public mutating func finish<E: Error>(onEvent: (SSERawEvent) throws(E) -> Void) throws(E) {
        try finish(repairUTF8: true, onEvent)
    }

    private mutating func finish<E: Error>(repairUTF8: Bool, _ onEvent: (SSERawEvent) throws(E) -> Void) throws(E) {
        if !line.isEmpty, endLine() { try dispatch(repairUTF8: repairUTF8, onEvent) }
        if hasData { try dispatch(repairUTF8: repairUTF8, onEvent) }
    }

    /// Processes the line collected across chunks; returns whether it completed an event.
    private mutating func endLine() -> Bool {
        let collected = line
        let complete = collected.withUnsafeBufferPointer { processLine($0, inChunk: false) }
        line.removeAll(keepingCapacity: true)
        lineTooLong = false
        return complete
    }

    /// Processes one complete line (without its line end); returns whether it completed an event
    /// (a blank line after data), which the caller then dispatches. `inChunk`: the line lies in the
    /// chunk being scanned (and stays valid until the scan ends).
    private mutating func processLine(_ whole: UnsafeBufferPointer<UInt8>, inChunk: Bool) -> Bool {
        var bytes = whole
        if atStart {
            atStart = false
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            }
        }
        if bytes.isEmpty {
            if hasData { return true }
            eventType = nil
            return false
        }
        if bytes[0] == UInt8(ascii: ":") { return false }  // comment
        let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        let nameEnd = colon ?? bytes.count
        var valueStart = colon.map { $0 + 1 } ?? bytes.count
        if valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let valueBytes = UnsafeBufferPointer(rebasing: bytes[valueStart...])
        switch FieldName(UnsafeBufferPointer(rebasing: bytes[0..<nameEnd])) {
        case .data:
            if hasData {
                keepPendingData()
                // An event's data is bounded like a line: the data lines past `maxLineBytes` are dropped, so an
                // upstream that never ends its event cannot grow it without limit.
                if data.count + 1 + valueBytes.count <= maxLineBytes {
                    data.append(0x0A)
                    data.append(contentsOf: valueBytes)
                }
            } else if inChunk {
                pendingData = valueBytes
            } else {
                data.append(contentsOf: valueBytes)
            }
            hasData = true
        case .event:
            eventType = String(decoding: valueBytes, as: UTF8.self)
        case .id:
            let value = String(decoding: valueBytes, as: UTF8.self)
            if !value.contains("\0") { lastId = value }
        case .retry:
            if let ms = Int(String(decoding: valueBytes, as: UTF8.self)), ms >= 0 { retry = ms }
        case .unknown:
            if strayText.utf8.count < Self.maxStrayBytes {
                if !strayText.isEmpty { strayText += "\n" }
                strayText += String(decoding: bytes, as: UTF8.self)
            }
        }
        return false
    }

    /// Hands the collected event to `onEvent` and resets for the next one. With `repairUTF8`,
    /// invalid UTF-8 in the data is first replaced by U+FFFD, as `String(decoding:)` does.
    private mutating func dispatch<E: Error>(repairUTF8: Bool, _ onEvent: (SSERawEvent) throws(E) -> Void) throws(E) {
        let type = eventType
        let eventRetry = retry
        eventType = nil
        retry = nil
        hasData = false
        if let pending = pendingData {
            pendingData = nil
            if !repairUTF8 || Self.isValidUTF8(pending) {
                try onEvent(SSERawEvent(event: type, data: pending, id: lastId, retry: eventRetry))
                return
            }
            data.append(contentsOf: pending)
        }
        if repairUTF8 { repairData() }
        defer { data.removeAll(keepingCapacity: true) }
        try data.withUnsafeBufferPointer { (buffer) throws(E) in
            try onEvent(SSERawEvent(event: type, data: buffer, id: lastId, retry: eventRetry))
        }
    }

    /// Replaces invalid UTF-8 in `data` by U+FFFD (only when it has non-ASCII bytes and they are invalid).
    private mutating func repairData() {
        if !data.withUnsafeBufferPointer(Self.isValidUTF8) { data = Array(String(decoding: data, as: UTF8.self).utf8) }
    }

    private static func isValidUTF8(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress, !ByteScan.isASCII(base, count: buffer.count) else { return true }
        return (try? UTF8Span(validating: buffer.span)) != nil
    }

    /// Copies a data line still in the chunk into `data`.
    private mutating func keepPendingData() {
        guard let pending = pendingData else { return }
        data.append(contentsOf: pending)
        pendingData = nil
    }

    private enum FieldName {
        case data, event, id, retry, unknown

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            switch bytes.count {
            case 4 where Self.equal(bytes, "data"): self = .data
            case 5 where Self.equal(bytes, "event"): self = .event
            case 2 where Self.equal(bytes, "id"): self = .id
            case 5 where Self.equal(bytes, "retry"): self = .retry
            default: self = .unknown
            }
        }

        /// `bytes` equals `name` (of the same length).
        private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
            for i in 0..<bytes.count where bytes[i] != name.utf8Start[i] { return false }
            return true
        }
    }
}

extension SSEEvent {
    /// The event of a raw one, its data decoded as UTF-8 (invalid bytes replaced by U+FFFD).
    init(_ raw: SSERawEvent) {
        self.init(event: raw.event, data: String(decoding: raw.data, as: UTF8.self), id: raw.id, retry: raw.retry)
    }
}
