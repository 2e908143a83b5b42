import SkillGateHTTP
import SkillGateState
import Synchronization

/// Stops the answers under way whose token was revoked, also while nothing passes through them (decision 0141): a
/// stream still waiting for its first event, a reasoning model quiet for minutes, a whole answer being generated, an
/// agent run inside a long skill. `TokenRecheck` asks the token cache when an event passes; this asks on a timer, and
/// is what reads the store for an answer under way (decision 0142), so a revoked token does not keep spending the
/// provider's key until its answer next says something, and no relay waits on the store.
///
/// Each answer is watched from its decoding to its accounting (`AccountStage`). `sweep()`, once a second on a queue of
/// its own (`GatewayServer`), asks the token service about every watched token at once (its cache, and one store read
/// for those the cache no longer vouches for) and stops the answers of a revoked one through their responders: their
/// tasks are cancelled and they end with `TokenRecheck.revoked` in their surface's shape (an error event on a stream, a
/// 401 otherwise).
final class RevocationWatch: Sendable {
    private let tokens: TokenService
    private let watched = Mutex<[ObjectIdentifier: Watched]>([:])

    private struct Watched: Sendable {
        let grant: TokenGrant
        let responder: HTTPResponder
    }

    init(tokens: TokenService) {
        self.tokens = tokens
    }

    /// Watches the answer `responder` sends for a request `grant` admitted, until `unwatch`.
    func watch(_ grant: TokenGrant, answeredBy responder: HTTPResponder) {
        watched.locked { $0[ObjectIdentifier(responder)] = Watched(grant: grant, responder: responder) }
    }

    /// Ends `watch` (the answer was accounted for); nothing when it was not watched.
    func unwatch(_ responder: HTTPResponder) {
        _ = watched.locked { $0.removeValue(forKey: ObjectIdentifier(responder)) }
    }

    /// How many answers are watched now.
    var count: Int { watched.locked { $0.count } }

    /// Asks once per watched token whether it is still valid, and stops the answers of each one that is not (revoked,
    /// or deleted from the store). Returns how many answers it stopped. May read the token store: call it off the event
    /// loops.
    @discardableResult
    func sweep() -> Int {
        var answers: [Watched] = []
        for answer in watched.locked({ Array($0.values) }) {
            // A client that left cannot be told anything; its answer is let go at its accounting, or here.
            if answer.responder.isClientGone {
                unwatch(answer.responder)
            } else {
                answers.append(answer)
            }
        }
        guard !answers.isEmpty else { return 0 }
        // One grant per token, asked all at once (one store read for those the cache no longer vouches for). A store
        // that cannot be read says nothing about the tokens (`.unknown`): the answers they admitted run on (a database
        // outage must not stop every answer under way; new requests meanwhile get the 503 of an unreadable store).
        var grants: [String: TokenGrant] = [:]
        for answer in answers where grants[answer.grant.token.id] == nil { grants[answer.grant.token.id] = answer.grant }
        let asked = Array(grants.values)
        var revoked: Set<String> = []
        for (grant, standing) in zip(asked, tokens.standings(of: asked)) where standing == .revoked { revoked.insert(grant.token.id) }
        var stopped = 0
        for answer in answers where revoked.contains(answer.grant.token.id) {
            answer.responder.stopHandler(because: TokenRecheck.revoked)
            unwatch(answer.responder)
            stopped += 1
        }
        return stopped
    }
}
