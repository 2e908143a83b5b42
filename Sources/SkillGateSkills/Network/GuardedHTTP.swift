import SkillGateHTTP

/// A response read by `GuardedHTTP`, its body capped.
public struct GuardedResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Whether the body was longer than the cap and cut.
    public var truncated: Bool
    /// The URL that answered (after redirects).
    public var url: OutboundURL
}

/// Outbound requests for skills with SSRF protection: the host is resolved here, every address
/// is checked against an `AddressPolicy`, and the connection is pinned to the checked address so
/// a second DNS answer (rebinding) cannot swap it. Redirects are never followed by libcurl; callers
/// that follow them go through `send` again for every hop.
public struct GuardedHTTP: Sendable {
    let http: HTTPClient
    let resolver: HostResolver

    public init(http: HTTPClient, resolver: HostResolver = HostResolver()) {
        self.http = http
        self.resolver = resolver
    }

    /// Checks `url` against `policy` (resolving the host) and returns the addresses to connect to.
    @discardableResult
    public func check(_ url: OutboundURL, policy: AddressPolicy) async throws(OutboundError) -> [IPAddress] {
        let addresses = try await resolver.resolve(url.host)
        for address in addresses {
            if let kind = policy.refusal(for: address, host: url.host) {
                let via = IPAddress(url.host) == nil ? "host \"\(url.host)\" resolves to \(address), which is" : "\(address) is"
                throw OutboundError("refused: \(via) a \(kind) address; skills may only reach public addresses unless their config allows it (\"allow_private\" or \"private_allowlist\")")
            }
        }
        return addresses
    }

    /// Sends one request (no redirects followed) after `check`, reading at most `maxBytes` of the body.
    public func send(method: String, url: OutboundURL, headers: HTTPHeaders, body: [UInt8], policy: AddressPolicy,
                     timeout: Duration, maxBytes: Int) async throws(OutboundError) -> GuardedResponse {
        let addresses = try await check(url, policy: policy)
        let pin = IPAddress(url.host) == nil ? HTTPAddressPin(host: url.host, port: url.port, addresses: addresses.map(\.description)) : nil
        let request = HTTPRequest(method: method, url: url.text, headers: headers, body: body,
                                  timeouts: HTTPTimeouts(connect: min(timeout, .seconds(10)), firstByte: timeout, idle: timeout, total: timeout),
                                  pin: pin)
        do {
            let response = try await http.stream(request)
            var out: [UInt8] = [], truncated = false
            for try await chunk in response.body {
                let room = maxBytes - out.count
                if chunk.count > room {
                    out.append(contentsOf: chunk.prefix(room))
                    truncated = true
                    break
                }
                out.append(contentsOf: chunk)
            }
            return GuardedResponse(status: response.status, headers: response.headers, body: out, truncated: truncated, url: url)
        } catch let error as HTTPClientError {
            if error.isTimeout { throw OutboundError("\(url.host) did not answer within \(Self.seconds(timeout)) s; try again later") }
            if error.kind == .cancelled { throw OutboundError("the request to \(url.host) was cancelled") }
            throw OutboundError("the request to \(url.host) failed (\(error.kind.rawValue): \(error.detail))")
        } catch {
            throw OutboundError("the request to \(url.host) failed: \(error)")
        }
    }

    static func seconds(_ d: Duration) -> String {
        let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        return s == s.rounded() ? String(Int(s)) : String(s)
    }
}
