/// Where the chat reads lines from (the terminal, or a script in tests).
public protocol ChatLineReader: Sendable {
    /// Shows `prompt` and returns the next line without its newline; nil at end of input (Ctrl-D).
    func readLine(prompt: String) async -> String?
}

/// Where the chat writes (the terminal, or a buffer in tests). Text appears at once, unbuffered.
public protocol ChatOutput: Sendable {
    func write(_ text: String)
}
