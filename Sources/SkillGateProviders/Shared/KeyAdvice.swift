/// How an error message tells the operator to replace a provider's key: with the key's own name in the key store,
/// the only name `skillgate keys set` accepts (the provider id, `openai`, is refused as a key name). Only the name is
/// ever shown, never the secret: these messages reach clients too.
enum KeyAdvice {
    /// "`skillgate keys set OPENAI_API_KEY`", or, when the key's name is not known where the error is made (an error
    /// inside a stream), where to find it.
    static func setKey(_ keyName: String?, provider: String) -> String {
        if let keyName, !keyName.isEmpty { return "`skillgate keys set \(keyName)`" }
        return "`skillgate keys set <name>`, with the key name `skillgate providers` lists for '\(provider)'"
    }
}
