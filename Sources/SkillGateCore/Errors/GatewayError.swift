/// An error SkillGate reports to a client, in whatever API shape the client spoke.
///
/// Every error says what went wrong and what to do next, names the provider when one was
/// involved, and carries the HTTP status the client should see. It never contains a secret.
public struct GatewayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Who is at fault, which decides retries and alerting.
    public enum FaultDomain: String, Sendable, Hashable {
        /// The request was wrong; retrying it unchanged will fail again.
        case caller
        /// The request was refused by a policy (auth, scope, budget, rate limit).
        case policy
        /// The upstream provider failed or refused.
        case provider
        /// SkillGate itself failed.
        case gateway
    }

    /// What kind of failure this is; decides the status and the error type names on each surface.
    public enum Kind: String, Sendable, Hashable {
        case invalidRequest = "invalid_request"
        case authentication = "authentication"
        case permission = "permission"
        case notFound = "not_found"
        case requestTooLarge = "request_too_large"
        case rateLimited = "rate_limited"
        case upstreamError = "upstream_error"
        case upstreamTimeout = "upstream_timeout"
        case upstreamUnavailable = "upstream_unavailable"
        case upstreamOverloaded = "upstream_overloaded"
        case upstreamProtocol = "upstream_protocol"
        case timeout = "timeout"
        case cancelled = "cancelled"
        case internalError = "internal_error"
    }

    /// How a provider refused the gateway itself rather than the request: nothing the client sent is at fault, this
    /// deployment will answer every request the same way until the operator fixes it, and another deployment (another
    /// provider, another key, another model id) may well answer.
    public enum ProviderRefusal: String, Sendable, Hashable {
        /// The provider refused SkillGate's key or account (401, 403, a billing refusal, Gemini's `API_KEY_INVALID`).
        case key
        /// The provider does not know the model id (or the endpoint) the catalog names (404, `model_not_found`).
        case model
    }

    public var domain: FaultDomain
    public var kind: Kind
    /// What went wrong and what to do next.
    public var message: String
    /// The HTTP status the client sees.
    public var status: Int
    /// The provider involved, if any.
    public var provider: String?
    /// The upstream HTTP status, if an upstream answered.
    public var upstreamStatus: Int?
    /// The request field at fault (`messages[2].content`), for caller errors.
    public var param: String?
    /// Seconds after which a retry may succeed (passed on as `Retry-After`): finite, from 0 to `maxRetryAfter`. A
    /// delay an upstream sent that is not a number of seconds at all (`inf`, `nan`, negative) is kept as nil, and a
    /// longer one as `maxRetryAfter`: `1e300` from an upstream once stopped the gateway where it was turned into the
    /// header's whole seconds. (An upstream's delay is bounded further, to `maxUpstreamRetryAfter`, where its errors
    /// leave the provider adapters.)
    public var retryAfter: Double? { didSet { retryAfter = Self.bounded(retryAfter) } }

    /// The longest `retryAfter` kept, in seconds: 31 days, the longest a monthly budget can wait for its reset.
    public static let maxRetryAfter: Double = 31 * 86_400

    /// The longest delay kept of what an upstream asks for (an hour): a client told to wait longer comes back and is
    /// told again, and a provider's `Retry-After: 99999999` is not passed on as three years.
    public static let maxUpstreamRetryAfter: Double = 3_600
    /// The provider's own error type/code, when it gave one (`overloaded_error`, `RESOURCE_EXHAUSTED`).
    public var upstreamCode: String?
    /// Set when the provider refused the gateway itself (its key, its account, the catalog's model id): the executor
    /// moves on to the next deployment and counts the refusal against this one's health, as it does for a 5xx.
    public var refusal: ProviderRefusal?
    /// Set when the provider answered with success but the answer is a failed attempt all the same (Gemini's
    /// `MALFORMED_FUNCTION_CALL`): the executor tries again, as far as `max_attempts` and the route allow, without
    /// counting it against the deployment's health (decision 0117).
    public var failedAnswer: FailedAnswer?
    /// Set when a provider's stream ended cleanly (its body closed) before the stream's own end — no finish reason, no
    /// `message_stop`, no `[DONE]` after an answer — with nothing garbled in it: the answer was cut short. Before the
    /// stream's first event nothing reached the client, and the route executor treats it as the cut connection it most
    /// likely is (decision 0129); after that it is reported as it is.
    public var streamEndedEarly = false
    /// Set when the gateway's own HTTP client gave up waiting for the provider after the request had gone out (its
    /// first-byte, idle or total timeout; never its connect timeout, when the provider had nothing yet): the provider most
    /// likely read the prompt and bills it, so the attempt is charged an estimate of its input (decision 0130).
    public var timedOutAfterSending = false
    /// Set when the gateway's own HTTP client gave up waiting for a free pooled connection to the provider
    /// (`limits.upstream_connections_per_host`): the request never went out. The next deployment is tried as after any
    /// timeout, but the failure is the gateway's queue's, not the deployment's, so it does not count against the
    /// deployment's health (decision 0171): the calls that hold the connections answer for the deployment, and another
    /// model of the same provider, which shares its host's connections, is not cooled down for them.
    public var timedOutWaitingForAConnection = false

    public init(domain: FaultDomain, kind: Kind, status: Int, message: String, provider: String? = nil,
                upstreamStatus: Int? = nil, param: String? = nil, retryAfter: Double? = nil, upstreamCode: String? = nil,
                refusal: ProviderRefusal? = nil) {
        self.domain = domain
        self.kind = kind
        self.status = status
        self.message = message
        self.provider = provider
        self.upstreamStatus = upstreamStatus
        self.param = param
        self.retryAfter = Self.bounded(retryAfter)
        self.upstreamCode = upstreamCode
        self.refusal = refusal
    }

    private static func bounded(_ seconds: Double?) -> Double? {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
        return min(seconds, maxRetryAfter)
    }

    public var description: String {
        var s = "\(kind.rawValue) (\(status))"
        if let provider { s += " from \(provider)" }
        if let upstreamStatus { s += " upstream \(upstreamStatus)" }
        return s + ": " + message
    }

    /// Whether trying another deployment (or the same one later) may succeed, because the failure depends on time
    /// (load, a rate limit, an outage). A provider's `refusal` is not: the same deployment refuses again, and only
    /// another one may answer (`FailureClassifier`).
    public var isRetryable: Bool {
        switch kind {
        case .rateLimited, .upstreamTimeout, .upstreamUnavailable, .upstreamOverloaded: return domain == .provider
        case .upstreamError: return (upstreamStatus ?? 0) >= 500
        default: return false
        }
    }
}

extension GatewayError {
    /// A malformed or invalid request (400), naming the field at fault.
    public static func invalidRequest(_ message: String, param: String? = nil) -> GatewayError {
        GatewayError(domain: .caller, kind: .invalidRequest, status: 400, message: message, param: param)
    }

    /// A failure inside SkillGate (500).
    public static func internalError(_ message: String) -> GatewayError {
        GatewayError(domain: .gateway, kind: .internalError, status: 500, message: message)
    }

    /// An upstream answer SkillGate could not understand (502).
    public static func upstreamProtocol(_ message: String, provider: String?, upstreamStatus: Int? = nil) -> GatewayError {
        GatewayError(domain: .provider, kind: .upstreamProtocol, status: 502,
                     message: message, provider: provider, upstreamStatus: upstreamStatus)
    }

    /// A provider's stream whose body ended cleanly before the stream's own end (502 `upstream_protocol`, marked
    /// `streamEndedEarly`): the answer is truncated. Before the stream's first event the route executor treats it as a
    /// cut connection (decision 0129).
    public static func streamEndedEarly(_ message: String, provider: String?, upstreamStatus: Int? = nil) -> GatewayError {
        var e = upstreamProtocol(message, provider: provider, upstreamStatus: upstreamStatus)
        e.streamEndedEarly = true
        return e
    }
}
