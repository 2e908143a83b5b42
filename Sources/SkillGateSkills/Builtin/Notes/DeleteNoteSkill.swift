import SkillGateCore

/// `delete_note`: deletes one of the calling token's notes by its id (as `save_note`, `search_notes` and `list_notes`
/// give it). Another token's note is answered exactly like an id that does not exist, so no caller learns which ids
/// others hold (decision 0118).
public struct DeleteNoteSkill: Skill {
    public let id = "builtin.delete_note"
    public let name = "delete_note"
    public let description = "Deletes one of the user's saved notes by its id (the number after # in list_notes and search_notes results). Use it only when the user asks to remove a note."
    public let parameters: JSONValue = [
        "type": "object",
        "properties": ["id": ["type": "integer", "description": "the note's id, e.g. 12 for note #12"]],
        "required": ["id"],
        "additionalProperties": false,
    ]
    public let version = "1.0"
    public let requiresConfirmation = false
    /// Removes what exists (destructive); deleting the same id again changes nothing more (idempotent).
    public let annotations = SkillAnnotations(title: "Delete a note", readOnly: false, destructive: true, idempotent: true, openWorld: false)
    let access: NotesAccess
    /// How long a call may take (`server_skills.notes.timeout_seconds`; 5 s by default).
    public var timeout: Duration { access.timeout }

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        guard let id = arguments["id"]?.intValue else {
            return SkillResult(text: "Missing \"id\": pass the note's number (12 for note #12); list_notes and search_notes show it.", isError: true)
        }
        let owner = context.tokenName
        guard try await access.run({ try $0.delete(owner: owner, id: Int64(id)) }) else {
            return SkillResult(text: "There is no note #\(id) among this user's notes; find the note's id with list_notes or search_notes.", isError: true)
        }
        return SkillResult(text: "Deleted note #\(id).", payload: ["id": .int(id), "deleted": true])
    }
}
