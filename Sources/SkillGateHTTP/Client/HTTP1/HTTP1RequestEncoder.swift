/// Writes an outbound request as HTTP/1.1 bytes, head and body in one buffer, the way libcurl would send it: `Host`,
/// `User-Agent` and `Accept: */*` unless the request sets its own, the request's fields in order, and a
/// `Content-Length` for a body (and for every method that is neither GET without a body nor HEAD). The request's own
/// framing fields (`Content-Length`, `Transfer-Encoding`) and `Expect` are not sent: the body is framed here, whole.
/// Call after `HTTPRequest.methodProblem` and `headerProblem` found nothing.
enum HTTP1RequestEncoder {
    static func encode(_ request: HTTPRequest, target: HTTP1Target, userAgent: String) -> [UInt8] {
        let method = request.method.uppercased()
        let sendsBody = !(method == "HEAD" || (method == "GET" && request.body.isEmpty))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160 + request.headers.count * 48 + (sendsBody ? request.body.count : 0))
        bytes.append(contentsOf: method.utf8)
        bytes.append(0x20)
        bytes.append(contentsOf: target.requestTarget.utf8)
        bytes.append(contentsOf: " HTTP/1.1\r\n".utf8)
        var ownHost = false
        var ownAgent = false
        var ownAccept = false
        for field in request.headers {
            if HTTPHeaders.sameName(field.name, "host") { ownHost = true }
            else if HTTPHeaders.sameName(field.name, "user-agent") { ownAgent = true }
            else if HTTPHeaders.sameName(field.name, "accept") { ownAccept = true }
        }
        if !ownHost { line(&bytes, "Host", target.authority) }
        if !ownAgent, !userAgent.isEmpty { line(&bytes, "User-Agent", userAgent[...]) }
        if !ownAccept { bytes.append(contentsOf: "Accept: */*\r\n".utf8) }
        for field in request.headers where !isFraming(field.name) {
            line(&bytes, field.name, field.value[...])
        }
        if sendsBody {
            bytes.append(contentsOf: "Content-Length: ".utf8)
            bytes.append(contentsOf: String(request.body.count).utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        bytes.append(contentsOf: "\r\n".utf8)
        if sendsBody { bytes.append(contentsOf: request.body) }
        return bytes
    }

    private static func line(_ bytes: inout [UInt8], _ name: String, _ value: Substring) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(0x3A)
        if !value.isEmpty {
            bytes.append(0x20)
            bytes.append(contentsOf: value.utf8)
        }
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    private static func isFraming(_ name: String) -> Bool {
        HTTPHeaders.sameName(name, "content-length") || HTTPHeaders.sameName(name, "transfer-encoding")
            || HTTPHeaders.sameName(name, "expect")
    }
}
