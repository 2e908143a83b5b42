import SkillGateCore

/// Writes an outbound request as HTTP/1.1 bytes, head and body in one buffer, the way libcurl would send it: `Host`,
/// `User-Agent` and `Accept: */*` unless the request sets its own, the request's fields in order, and a
/// `Content-Length` for a body (and for every method that is neither GET without a body nor HEAD). The request's own
/// framing fields (`Content-Length`, `Transfer-Encoding`) and `Expect` are not sent: the body is framed here, whole.
/// Call after `HTTPRequest.methodProblem` and `headerProblem` found nothing.
enum HTTP1RequestEncoder {
    static func encode(_ request: HTTPRequest, target: HTTP1Target, userAgent: String) -> [UInt8] {
        let method = request.upperCaseMethod
        let sendsBody = !(method == "HEAD" || (method == "GET" && request.body.isEmpty))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160 + request.headers.count * 48 + (sendsBody ? request.body.count : 0))
        bytes.append(contentsOf: method.utf8)
        bytes.append(0x20)
        target.appendRequestTarget(to: &bytes)
        bytes += " HTTP/1.1\r\n"
        var own = Defaults()
        for field in request.headers { own.note(field.name) }
        if !own.host {
            bytes += "Host: "
            target.appendAuthority(to: &bytes)
            bytes += "\r\n"
        }
        if !own.userAgent, !userAgent.isEmpty { line(&bytes, "User-Agent", userAgent) }
        if !own.accept { bytes += "Accept: */*\r\n" }
        for field in request.headers where !(own.framing && isFraming(field.name)) {
            line(&bytes, field.name, field.value)
        }
        if sendsBody {
            bytes += "Content-Length: "
            bytes.append(contentsOf: String(request.body.count).utf8)
            bytes += "\r\n"
        }
        bytes += "\r\n"
        if sendsBody { bytes.append(contentsOf: request.body) }
        return bytes
    }

    /// Which defaults the request's own fields replace, and whether it has framing fields to drop. Names are compared
    /// only when their length matches, so a request pays little for the look.
    private struct Defaults {
        var host = false
        var userAgent = false
        var accept = false
        var framing = false

        mutating func note(_ name: String) {
            switch name.utf8.count {
            case 4: host = host || HTTPHeaders.sameName(name, "host")
            case 10: userAgent = userAgent || HTTPHeaders.sameName(name, "user-agent")
            case 6: accept = accept || HTTPHeaders.sameName(name, "accept")
            case 14, 17: framing = true
            default: break
            }
            if name.utf8.count == 6 { framing = true }   // Expect
        }
    }

    private static func line(_ bytes: inout [UInt8], _ name: String, _ value: String) {
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
