import SkillGateCore

/// The OpenAI Responses API shape (`POST /v1/responses`) as clients speak it to the gateway: the
/// request (`input` items, `instructions`, function tools, `text.format`, `reasoning`, `store`,
/// `previous_response_id`), the `response` object, its output items, the event stream
/// (`response.created` ... `response.completed`, each with a `sequence_number`) and errors.
///
/// Pure translation, no I/O, like the other wire formats in this module; the gateway's surface
/// (`SkillGateServer/Surfaces/Responses/`) adds storage and the pipeline.
///
/// Decisions (docs/decisions/0028-responses-api.md):
/// - Everything is translated through the wire-neutral model, so any provider can answer.
/// - Only `function` tools; hosted tools (`web_search`, `file_search`, `mcp`, ...) are refused with
///   a 400 naming the tool, never silently dropped.
/// - Reasoning is returned as `reasoning` items whose `summary` holds the provider's visible
///   reasoning and whose `encrypted_content` carries its signature, so a client that sends the
///   items back replays the reasoning to the provider untouched.
public enum OpenAIResponsesFormat {
    /// The prefix of response ids (`resp_…`).
    public static let responseIdPrefix = "resp_"

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A response id: `resp_`, the time in milliseconds as 12 hex digits, then `unique` (the request id's random
    /// part). Ids that grow with time keep the stored responses' index appending at its end, where random ids
    /// dirtied a different index page with every answer stored.
    public static func responseId(milliseconds: Int64, unique: Substring) -> String {
        var id = responseIdPrefix
        id.reserveCapacity(responseIdPrefix.utf8.count + 12 + unique.utf8.count)
        let ms = UInt64(max(0, milliseconds))
        id += String(decoding: (0..<12).map { hexDigits[Int((ms >> UInt64(44 - 4 * $0)) & 0xF)] }, as: UTF8.self)
        id += unique
        return id
    }
}
