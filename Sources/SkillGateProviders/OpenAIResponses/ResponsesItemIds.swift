import SkillGateCore

/// The ids of a stored conversation's items (decision 0138): made once, when the response that brought the item in is
/// stored, and kept in the item (its `id` member, written first), so a later response of the chain lists the item with
/// the same id.
///
/// - An answer's items: the ids of the Response object's `output`, `{msg|fc|rs}_{response}_{output index}`
///   (`ResponsesOutputItems.itemId`).
/// - A request's input items: the client's own `id` when it sent one, else `{prefix}_{response}_in{index}` (`input`),
///   `index` counting the request's own input items: `in` keeps them apart from the same response's output ids.
/// - Items stored before ids were kept (rows of an older gateway, and their items copied into the rows of responses
///   that continued them) have none: they are listed with `{prefix}_{listed response}_{position}` (`positional`), the
///   ids decision 0127 gave every item.
public enum ResponsesItemIds {
    /// The id prefix of an item of `type`: `msg`, `fc` (a function call), `fco` (its output), `rs`, else `item`.
    public static func prefix(forType type: String) -> String {
        switch type {
        case "message": "msg"
        case "function_call": "fc"
        case "function_call_output": "fco"
        case "reasoning": "rs"
        default: "item"
        }
    }

    /// The type of a stored or sent item: its `type`, else `message` when it has a `role` (the short form), else "".
    public static func type(of item: JSONObject) -> String {
        item["type"]?.stringValue ?? (item["role"] != nil ? "message" : "")
    }

    /// The id of the input item at `index` of response `responseId`'s own input, for an item the client sent without one.
    public static func input(type: String, responseId: String, index: Int) -> String {
        prefix(forType: type) + "_" + withoutPrefix(responseId) + "_in" + String(index)
    }

    /// The id of an item without a stored one, at `position` of the list of response `responseId` (decision 0127's ids).
    public static func positional(type: String, responseId: String, position: Int) -> String {
        prefix(forType: type) + "_" + withoutPrefix(responseId) + "_" + String(position)
    }

    /// The id a stored item keeps, or nil when it keeps none: not a string, empty, or `rs`, which the writer of older
    /// gateways put in every stored reasoning item (`ResponsesItemsWriter`), so it names no item.
    public static func kept(_ id: String?) -> String? {
        guard let id, !id.isEmpty, id != legacyReasoningId else { return nil }
        return id
    }

    /// The `id` every stored reasoning item had before ids were kept.
    static let legacyReasoningId = "rs"

    private static func withoutPrefix(_ responseId: String) -> Substring {
        responseId.hasPrefix(OpenAIResponsesFormat.responseIdPrefix)
            ? responseId.dropFirst(OpenAIResponsesFormat.responseIdPrefix.count) : Substring(responseId)
    }
}
