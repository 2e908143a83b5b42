import SkillGateCore

/// Reading the `messages` array straight from the body's bytes, without a tree of the array and of each message object
/// (a message's `content` and `tool_calls` are still read as values: a string content, the common case, is one string).
///
/// Each message is decoded by `InboundMessages.append`, the rules the tree's decoder uses, so what this reader returns
/// is what decoding the tree returns. It decodes only what it can decode without changing an answer: for an array that
/// is empty or not an array, an element that is not an object, a member the decoder reads appearing twice in one message
/// (a tree lookup takes the first), a message with an error, or a syntax error, it puts the cursor back where it was and
/// returns `nil`. The caller then reads the array as a tree, which gives the same messages or the error, in its place
/// among the body's other checks (the `model` field's, for example, come first whatever the members' order).
extension InboundMessages {
    /// The messages of the array at the cursor, with the cursor past it; `nil`, with the cursor where it was, when the
    /// array must be read as a tree (see above).
    static func read(_ c: inout JSONCursor) -> [Message]? {
        let start = c
        do {
            if let messages = try readArray(&c) { return messages }
        } catch {
            // A syntax error: the tree's reader meets it again at the same place and reports it.
        }
        c = start
        return nil
    }

    private static func readArray(_ c: inout JSONCursor) throws(JSONSyntaxError) -> [Message]? {
        var messages: [Message] = []
        messages.reserveCapacity(8)
        var toolNames: [String: String] = [:]
        var count = 0
        var usable = true
        let isArray = try c.readArray { (c) throws(JSONSyntaxError) in
            guard usable else { return }   // the rest is skipped (and checked) by the cursor
            defer { count += 1 }
            guard let fields = try readFields(&c) else { usable = false; return }
            do { try append(fields, at: count, to: &messages, toolNames: &toolNames) } catch { usable = false }
        }
        guard isArray, usable, count > 0 else { return nil }
        return messages
    }

    /// The members of the message object at the cursor that decoding reads; `nil` when the element is not an object or
    /// one of those members appears twice.
    private static func readFields(_ c: inout JSONCursor) throws(JSONSyntaxError) -> Fields? {
        var fields = Fields()
        var seen: UInt8 = 0
        var repeated = false
        let isObject = try c.readObject { (c, key) throws(JSONSyntaxError) in
            let member: UInt8
            switch key {
            case "role": member = 1
            case "content": member = 2
            case "tool_calls": member = 4
            case "tool_call_id": member = 8
            default: return   // not read by the decoder: skipped (and checked) by the cursor
            }
            guard seen & member == 0 else { repeated = true; return }
            seen |= member
            let value = try c.readValue()
            switch member {
            case 1: fields.role = value
            case 2: fields.content = value
            case 4: fields.toolCalls = value
            default: fields.toolCallId = value
            }
        }
        return isObject && !repeated ? fields : nil
    }
}
