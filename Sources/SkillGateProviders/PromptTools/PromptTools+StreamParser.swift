import SkillGateCore

/// A value-type state machine that reads Hermes/Qwen tool calls out of a model's streamed text.
///
/// Feed it the inner model's text deltas in any split; it emits `textDelta` for text that is
/// certainly not part of a call and `toolCallStart` / `toolCallArgumentsDelta` / `toolCallEnd`
/// once a whole `<tool_call>…</tool_call>` (or a ```json fence holding a call) has arrived.
/// Text that may be the start of a tag (`<`, `<tool_ca`) or of a fence (`` ` ``, ```` ``` ````) is held
/// back, never leaked half-way, and released by `finish()` if it turned out to be plain text.
/// Whitespace between text and a call, and between calls, is dropped.
///
/// A `<tool_call>` that is never closed (the text ends, or another `<tool_call>` follows) is prose,
/// not a call, unless what follows it starts with `{` or a ```json fence. An answer cut by the length
/// limit (`finish(truncated: true)`) inside such a call loses the unfinished call, never runs it, and
/// keeps its finish reason (`cutCall`, `finishReason(_:)`; decision 0111).
///
/// The events fold to the same response whether the text arrives whole or one character at a
/// time. After `feed` or `finish` threw, the parser must be discarded.
public struct PromptToolStreamParser: Sendable {
    private enum Mode: Sendable { case text, call, fence, fenceInfo, plainFence }
    private enum Match { case full, partial, none }

    private static let openTag = Array("<tool_call>".utf8)
    private static let closeTag = Array("</tool_call>".utf8)
    private static let fenceMark = Array("```".utf8)
    private static let jsonFence = Array("```json".utf8)
    private static let fenceInfos: Set<String> = ["", "json", "json5", "tool_call", "tool_calls", "tool", "xml"]
    /// A longer info line (blanks included) is never a call's: the parser need not wait for its end.
    private static let maxInfoBytes = 64
    private static let lt = UInt8(ascii: "<"), backtick = UInt8(ascii: "`")

    /// The names of the tools the model was offered; calls to any other tool are refused.
    public let offeredTools: [String]
    /// The call ids are this prefix followed by the call's ordinal.
    public let idPrefix: String
    /// The provider named in errors.
    public let provider: String?
    /// How many tool calls were emitted so far.
    public private(set) var callCount = 0
    /// `finish(truncated: true)` dropped a call the length limit cut off before its closing tag.
    public private(set) var cutCall = false

    private let offered: Set<String>
    private var mode = Mode.text
    private var buffer: [UInt8] = []
    private var scanned = 0
    private var heldSpace: [UInt8] = []
    private var afterCall = false
    /// A fence was opened around `<tool_call>` tags; its closing fence is dropped too.
    private var inWrapperFence = false
    private var pendingText: [UInt8] = []
    /// The bytes that opened the current call (`<tool_call>`, or a fence and the tag) and the whitespace
    /// held before them: given back as text when the tag turns out to be prose.
    private var openedWith: [UInt8] = []
    private var spaceBeforeTag: [UInt8] = []
    /// `finish(truncated: true)` was called: the answer ended at the length limit.
    private var endedByLength = false

    /// A parser for one answer. `idPrefix` defaults to `call_` plus random characters, so ids stay
    /// unique across the turns of a conversation.
    public init(offeredTools: [String], idPrefix: String = PromptToolStreamParser.randomIdPrefix(), provider: String? = nil) {
        self.offeredTools = offeredTools
        self.offered = Set(offeredTools)
        self.idPrefix = idPrefix
        self.provider = provider
    }

    /// `call_` followed by 12 random lowercase letters and digits and `_`.
    public static func randomIdPrefix() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return "call_" + String((0..<12).map { _ in alphabet.randomElement()! }) + "_"
    }

    /// Feeds the next text delta. Throws a `GatewayError` for a call to a tool that was not offered
    /// or for `<tool_call>` tags around something that is not a call.
    public mutating func feed(_ text: String) throws -> [ChatStreamEvent] {
        buffer.append(contentsOf: text.utf8)
        var events: [ChatStreamEvent] = []
        try process(&events, atEnd: false)
        flushPendingText(&events)
        // What is held while a call's tag or fence is open is bounded as an answer is (decision 0155): an upstream that
        // opened `<tool_call>` and then streamed without end grew it until the transfer's total timeout.
        if buffer.count > Self.maxHeldBytes {
            throw GatewayError.upstreamProtocol("the answer of \(provider ?? "the provider") held a tool call open past \(Self.maxHeldBytes >> 20) MiB "
                                                + "without closing it, far more than any call's arguments, so the gateway stopped reading it; set "
                                                + "max_tokens on the request, and the operator should check the deployment", provider: provider)
        }
        return events
    }

    /// The most the parser holds while a call's tag or fence is open: an answer's bound (decision 0155).
    public static let maxHeldBytes = 32 << 20

    /// Ends the text: releases held-back text, and reads a call whose closing tag or fence is missing.
    /// `truncated` says the answer was cut by the length limit (finish reason `length`): a call whose
    /// tag is still open is then dropped (`cutCall`) instead of being read or refused as malformed.
    public mutating func finish(truncated: Bool = false) throws -> [ChatStreamEvent] {
        endedByLength = truncated
        var events: [ChatStreamEvent] = []
        try process(&events, atEnd: true)
        pendingText += heldSpace
        heldSpace.removeAll()
        flushPendingText(&events)
        return events
    }

    /// The answer's finish reason given the inner model's: `length` when a cut call was dropped (even
    /// after complete calls: the model had more to call), `toolCalls` when calls were read, else `inner`.
    public func finishReason(_ inner: FinishReason) -> FinishReason {
        cutCall ? .length : callCount > 0 ? .toolCalls : inner
    }

    private mutating func process(_ events: inout [ChatStreamEvent], atEnd: Bool) throws {
        var more = true
        while more {
            switch mode {
            case .text: more = stepText(atEnd: atEnd)
            case .call: more = try stepCall(&events, atEnd: atEnd)
            case .fence: more = stepFence(&events, atEnd: atEnd)
            case .fenceInfo: more = stepFenceInfo(atEnd: atEnd)
            case .plainFence: more = stepPlainFence(atEnd: atEnd)
            }
        }
    }

    // MARK: - Modes

    private mutating func stepText(atEnd: Bool) -> Bool {
        if inWrapperFence, !skipWrapperFenceClose(atEnd: atEnd) { return false }
        var i = 0
        while i < buffer.count {
            let b = buffer[i]
            if b == Self.lt || b == Self.backtick {
                let isTag = b == Self.lt
                switch match(isTag ? Self.openTag : Self.fenceMark, at: i) {
                case .full:
                    emitText(buffer[..<i])
                    if isTag {
                        enterCall(from: i, to: i + Self.openTag.count)
                    } else {
                        buffer.removeFirst(i)
                        mode = .fence
                        scanned = 0
                    }
                    return true
                case .partial where !atEnd:
                    emitText(buffer[..<i])
                    buffer.removeFirst(i)
                    return false
                default: break
                }
            }
            i += 1
        }
        emitText(buffer[...])
        buffer.removeAll(keepingCapacity: true)
        return false
    }

    /// After a call that sat inside a fence: drops the closing fence. Returns `false` while it
    /// cannot tell yet whether the fence closes.
    private mutating func skipWrapperFenceClose(atEnd: Bool) -> Bool {
        guard let first = buffer.firstIndex(where: { !Self.isSpace($0) }) else {
            if atEnd { inWrapperFence = false }
            return atEnd
        }
        if buffer[first] == Self.backtick {
            switch match(Self.fenceMark, at: first) {
            case .full:
                buffer.removeFirst(first + Self.fenceMark.count)
                inWrapperFence = false
            case .partial where !atEnd: return false
            default: inWrapperFence = false
            }
        } else if buffer[first] != Self.lt {
            inWrapperFence = false
        }
        return true
    }

    private mutating func stepCall(_ events: inout [ChatStreamEvent], atEnd: Bool) throws -> Bool {
        var i = scanned
        while i < buffer.count {
            if buffer[i] == Self.lt {
                let close = match(Self.closeTag, at: i), reopen = match(Self.openTag, at: i)
                if close == .full {
                    try emitTaggedCall(buffer[..<i], &events)
                    buffer.removeFirst(i + Self.closeTag.count)
                    mode = .text
                    scanned = 0
                    return true
                }
                if reopen == .full {  // the tag was never closed: prose unless it starts like a call
                    guard Self.startsLikeACall(buffer[..<i], orItsCutStart: false) else { return releaseTagAsText() }
                    try emitTaggedCall(buffer[..<i], &events)
                    enterCall(from: i, to: i + Self.openTag.count)
                    return true
                }
                if (close == .partial || reopen == .partial) && !atEnd {
                    scanned = i
                    return false
                }
            }
            i += 1
        }
        if atEnd {  // the tag was never closed
            guard Self.startsLikeACall(buffer[...], orItsCutStart: endedByLength) else { return releaseTagAsText() }
            if endedByLength {
                cutCall = true  // even a complete-looking object: the model had not finished the block
            } else {
                try emitTaggedCall(buffer[...], &events)
            }
            buffer.removeAll()
            mode = .text
            return false
        }
        scanned = buffer.count
        return false
    }

    /// Starts a call: drops `buffer[..<to]` (`buffer[from..<to]` opened it), remembering the opening
    /// bytes and the whitespace held before them in case the tag turns out to be prose.
    private mutating func enterCall(from: Int, to: Int) {
        openedWith.removeAll(keepingCapacity: true)
        openedWith += buffer[from..<to]
        spaceBeforeTag = heldSpace
        heldSpace.removeAll()
        buffer.removeFirst(to)
        mode = .call
        scanned = 0
    }

    /// An unclosed tag is prose: its opening bytes become text, and what followed is read again as text.
    private mutating func releaseTagAsText() -> Bool {
        heldSpace = spaceBeforeTag + heldSpace
        emitText(openedWith[...])
        inWrapperFence = false
        mode = .text
        scanned = 0
        return true
    }

    /// Whether the body of an unclosed tag starts (after whitespace) with `{` or a ```json fence, or is
    /// empty; with `orItsCutStart`, also when it is a beginning of a ```json fence cut short.
    private static func startsLikeACall(_ body: ArraySlice<UInt8>, orItsCutStart: Bool) -> Bool {
        guard let first = body.firstIndex(where: { !isSpace($0) }) else { return true }
        if body[first] == UInt8(ascii: "{") { return true }
        let rest = body[first...]
        return rest.starts(with: jsonFence) || (orItsCutStart && jsonFence.starts(with: rest))
    }

    /// `buffer` starts with a fence. Decides from the info line and the first character whether
    /// it may hold a call; if so, waits for the closing fence and parses it.
    private mutating func stepFence(_ events: inout [ChatStreamEvent], atEnd: Bool) -> Bool {
        let afterMark = Self.fenceMark.count
        guard let newline = buffer[afterMark...].firstIndex(of: UInt8(ascii: "\n")) else {
            if atEnd { return releaseFenceAsText(upTo: buffer.count, nextMode: .text) }
            // Decided as soon as no info string can follow, and the same way as with the whole line:
            // the rest of the info line stays text (a ``` in it does not close the fence), then the
            // fence's content is text (found by fuzzing: the outcome depended on where deltas split).
            if buffer.count - afterMark > Self.maxInfoBytes
                || !Self.fenceInfos.contains(where: { $0.hasPrefix(Self.info(buffer[afterMark...])) }) {
                return releaseFenceAsText(upTo: buffer.count, nextMode: .fenceInfo)
            }
            return false
        }
        let info = newline - afterMark > Self.maxInfoBytes ? "-" : Self.info(buffer[afterMark..<newline])
        guard Self.fenceInfos.contains(info) else { return releaseFenceAsText(upTo: newline + 1, nextMode: .plainFence) }
        guard let first = buffer[(newline + 1)...].firstIndex(where: { !Self.isSpace($0) }) else {
            if atEnd { return releaseFenceAsText(upTo: buffer.count, nextMode: .text) }
            return false
        }
        if buffer[first] == Self.lt {
            switch match(Self.openTag, at: first) {
            case .full:  // a fence wrapped around the tags: drop it and read the call
                enterCall(from: 0, to: first + Self.openTag.count)
                inWrapperFence = true
                return true
            case .partial where !atEnd: return false
            default: return releaseFenceAsText(upTo: newline + 1, nextMode: .plainFence)
            }
        }
        guard buffer[first] == UInt8(ascii: "{"), info != "xml" else { return releaseFenceAsText(upTo: newline + 1, nextMode: .plainFence) }
        var i = max(scanned, first)
        while i < buffer.count {
            if buffer[i] == Self.backtick {
                switch match(Self.fenceMark, at: i) {
                case .full:
                    resolveFence(content: buffer[(newline + 1)..<i], end: i + afterMark, &events)
                    return true
                case .partial where !atEnd:
                    scanned = i
                    return false
                default: break
                }
            }
            i += 1
        }
        if atEnd {
            resolveFence(content: buffer[(newline + 1)...], end: buffer.count, &events)
            return false
        }
        scanned = buffer.count
        return false
    }

    private mutating func resolveFence(content: ArraySlice<UInt8>, end: Int, _ events: inout [ChatStreamEvent]) {
        var trimmed = content
        while let last = trimmed.last, last == Self.backtick || Self.isSpace(last) { trimmed.removeLast() }
        if let call = PromptToolCallParser.parseFenced(trimmed), offered.contains(call.name) {
            emitCall(call, &events)
        } else {
            emitText(buffer[..<end])
        }
        buffer.removeFirst(end)
        mode = .text
        scanned = 0
    }

    private mutating func releaseFenceAsText(upTo end: Int, nextMode: Mode) -> Bool {
        emitText(buffer[..<end])
        buffer.removeFirst(end)
        mode = nextMode
        scanned = 0
        return !buffer.isEmpty
    }

    /// A fence's info string as compared with `fenceInfos`: lowercased, without blanks.
    private static func info(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).lowercased().filter { $0 != " " && $0 != "\r" && $0 != "\t" }
    }

    /// The rest of the info line of a fence that holds no call: text up to the newline, then the fence.
    private mutating func stepFenceInfo(atEnd: Bool) -> Bool {
        guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else {
            emitText(buffer[...])
            buffer.removeAll(keepingCapacity: true)
            if atEnd { mode = .text }
            return false
        }
        return releaseFenceAsText(upTo: newline + 1, nextMode: .plainFence)
    }

    /// Inside a fence that holds no call: text until the closing fence.
    private mutating func stepPlainFence(atEnd: Bool) -> Bool {
        var i = 0
        while i < buffer.count {
            if buffer[i] == Self.backtick {
                switch match(Self.fenceMark, at: i) {
                case .full:
                    emitText(buffer[..<(i + Self.fenceMark.count)])
                    buffer.removeFirst(i + Self.fenceMark.count)
                    mode = .text
                    return true
                case .partial where !atEnd:
                    emitText(buffer[..<i])
                    buffer.removeFirst(i)
                    return false
                default: break
                }
            }
            i += 1
        }
        emitText(buffer[...])
        buffer.removeAll(keepingCapacity: true)
        return false
    }

    // MARK: - Output

    private mutating func emitTaggedCall(_ body: ArraySlice<UInt8>, _ events: inout [ChatStreamEvent]) throws {
        // An empty pair of tags (or a tag opened right before the end) carries no call.
        guard body.contains(where: { !Self.isSpace($0) }) else { return }
        switch PromptToolCallParser.parseTagged(body) {
        case .success(let calls):
            if let stranger = calls.first(where: { !offered.contains($0.name) }) {
                throw PromptToolsClient.toolNotOffered(stranger.name, offered: offeredTools, provider: provider)
            }
            for call in calls { emitCall(call, &events) }
        case .failure(.malformed(let reason)):
            throw PromptToolsClient.malformedToolCall(reason, provider: provider)
        }
    }

    private mutating func emitCall(_ call: PromptToolCallParser.ParsedCall, _ events: inout [ChatStreamEvent]) {
        flushPendingText(&events)
        heldSpace.removeAll()
        let ordinal = callCount
        callCount += 1
        events.append(.toolCallStart(ordinal: ordinal, id: idPrefix + String(ordinal), name: call.name))
        events.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: call.arguments))
        events.append(.toolCallEnd(ordinal: ordinal))
        afterCall = true
    }

    /// Queues text, dropping whitespace right after a call and holding trailing whitespace back
    /// until it is known whether a call follows.
    private mutating func emitText(_ bytes: ArraySlice<UInt8>) {
        var slice = bytes
        if afterCall {
            guard let first = slice.firstIndex(where: { !Self.isSpace($0) }) else { return }
            slice = slice[first...]
            afterCall = false
        }
        guard let last = slice.lastIndex(where: { !Self.isSpace($0) }) else {
            heldSpace += slice
            return
        }
        pendingText += heldSpace
        heldSpace.removeAll()
        pendingText += slice[...last]
        heldSpace += slice[(last + 1)...]
    }

    private mutating func flushPendingText(_ events: inout [ChatStreamEvent]) {
        guard !pendingText.isEmpty else { return }
        events.append(.textDelta(String(decoding: pendingText, as: UTF8.self)))
        pendingText.removeAll(keepingCapacity: true)
    }

    private func match(_ pattern: [UInt8], at start: Int) -> Match {
        var j = 0
        while j < pattern.count {
            let k = start + j
            if k >= buffer.count { return .partial }
            if buffer[k] != pattern[j] { return .none }
            j += 1
        }
        return .full
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D
    }
}
