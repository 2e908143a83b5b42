extension GatewayError {
    /// The message with the provider named, as clients see it.
    public var clientMessage: String {
        guard let provider, !message.contains(provider) else { return message }
        return "\(provider): \(message)"
    }
}
