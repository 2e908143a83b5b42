import Synchronization

/// Where Ctrl-C goes: to the answer streaming now (which stops), or — at the prompt — nowhere,
/// which tells the caller to leave the chat.
public final class ChatInterrupts: Sendable {
    private let cancelCurrent = Mutex<(@Sendable () -> Void)?>(nil)

    public init() {}

    /// An answer started; `cancel` stops it.
    public func beginTurn(cancel: @escaping @Sendable () -> Void) {
        cancelCurrent.locked { $0 = cancel }
    }

    /// The answer ended; Ctrl-C goes back to leaving the chat.
    public func endTurn() {
        cancelCurrent.locked { $0 = nil }
    }

    /// Delivers one Ctrl-C. Returns true when it stopped an answer, false when none was streaming
    /// (the user is at the prompt and wants to leave).
    public func interrupt() -> Bool {
        guard let cancel = cancelCurrent.locked({ c -> (@Sendable () -> Void)? in
            defer { c = nil }
            return c
        }) else { return false }
        cancel()
        return true
    }
}
