extension AgentEvent: Codable {
    /// `{"event":"skill.started","data":{…}}`: an event as one JSON value (for logs and transcripts;
    /// on `/v1/agent` events travel as server-sent events, see `sseBytes()`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .event)
        try container.encode(AnyPayload(self), forKey: .data)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .event)
        guard let known = Name(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: .event, in: container,
                                                   debugDescription: AgentEventDecodingError.unknownEvent(name: name).description)
        }
        switch known {
        case .runStarted: self = .runStarted(try container.decode(RunStarted.self, forKey: .data))
        case .routeSelected: self = .routeSelected(try container.decode(RouteSelected.self, forKey: .data))
        case .skillStarted: self = .skillStarted(try container.decode(SkillStarted.self, forKey: .data))
        case .skillFinished: self = .skillFinished(try container.decode(SkillFinished.self, forKey: .data))
        case .textDelta: self = .textDelta(try container.decode(TextDelta.self, forKey: .data))
        case .toolCall: self = .toolCall(try container.decode(ToolCall.self, forKey: .data))
        case .runCompleted: self = .runCompleted(try container.decode(RunCompleted.self, forKey: .data))
        case .runFailed: self = .runFailed(try container.decode(RunFailed.self, forKey: .data))
        }
    }

    enum CodingKeys: String, CodingKey {
        case event, data
    }
}
