import SkillGateCore

/// Reading the `messages` array straight from the body's bytes, without a tree of the array and of each message object
/// (a message's `content` and `tool_calls` are still read as values: a string content, the common case, is one string).
///
/// Each message is decoded by `InboundMessages.append`, the rules the tree's decoder uses, so what this reader returns
/// is what decoding the tree returns. It decodes only what it can decode without changing an answer: for an array that
/// is empty or not an array, an element that is not an object, a message with an error, or a syntax error (a repeated
/// key among them: the body's cursor refuses it, decision 0093), it puts the cursor back where it was and returns
/// `nil`. The caller then reads the array as a tree, which gives the same messages or the error, in its place among the
/// body's other checks (the `model` field's, for example, come first whatever the members' order).
extension InboundMessages {
    /// The messages of the array at the cursor, with the cursor past it; `nil`, with the cursor where it was, when the
    /// array must be read as a tree (see above).
    static func read(_ c: inout JSONCursor) -> [Message]? {
        assert(c.duplicateKeys == .refused, "a message's members are read as they come: a repeated one must be refused")
        let start = c.mark
        do {
            if let messages = try readArray(&c) { return messages }
        } catch {
            // A syntax error: the tree's reader meets it again at the same place and reports it.
        }
        c.restore(start)
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

    /// The members of the message object at the cursor that decoding reads; `nil` when the element is not an object.
    /// Each comes once: the body's cursor refuses a repeated key.
    private static func readFields(_ c: inout JSONCursor) throws(JSONSyntaxError) -> Fields? {
        var fields = Fields()
        let isObject = try c.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "role": fields.role = try c.readValue()
            case "content": fields.content = try c.readValue()
            case "tool_calls": fields.toolCalls = try c.readValue()
            case "tool_call_id": fields.toolCallId = try c.readValue()
            default: return   // not read by the decoder: skipped (and checked) by the cursor
            }
        }
        return isObject ? fields : nil
    }
}
