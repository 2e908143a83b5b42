@testable import SkillGateHTTP
import Testing

/// The Host check (RFC 9112 §3.2): HTTP/1.1 needs exactly one valid Host field, HTTP/1.0 may have none.
@Suite struct RequestHostTests {
    private static func check(_ text: String) -> RequestHost.Refusal? {
        guard case .success(let head) = Array(text.utf8).withUnsafeBytes({ RequestHeadParser.parse($0) }) else {
            Issue.record("\(text.debugDescription) did not parse")
            return nil
        }
        return RequestHost.check(head)
    }

    @Test(arguments: [
        "GET / HTTP/1.1\r\nHost: example.com", "GET / HTTP/1.1\r\nhost: gw:8080", "GET / HTTP/1.1\r\nHOST: 127.0.0.1:1",
        "GET / HTTP/1.1\r\nHost: [::1]:8080", "GET / HTTP/1.1\r\nHost: [fe80::1%25eth0]", "GET / HTTP/1.1\r\nHost: x:",
        "GET / HTTP/1.1\r\nHost: my_host.local", "GET / HTTP/1.0", "GET / HTTP/1.0\r\nHost: x",
        "GET http://a/b HTTP/1.1\r\nHost: a",
    ])
    func acceptedHosts(text: String) {
        #expect(Self.check(text) == nil, "\(text.debugDescription)")
    }

    @Test(arguments: [
        ("GET / HTTP/1.1", RequestHost.missingMessage), ("GET / HTTP/1.1\r\nX-Host: x", RequestHost.missingMessage),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: a", RequestHost.repeatedMessage),
        ("GET / HTTP/1.0\r\nHost: a\r\nhost: b", RequestHost.repeatedMessage),
        ("GET / HTTP/1.1\r\nHost:", RequestHost.invalidMessage), ("GET / HTTP/1.1\r\nHost: a b", RequestHost.invalidMessage),
        ("GET / HTTP/1.1\r\nHost: a/b", RequestHost.invalidMessage), ("GET / HTTP/1.1\r\nHost: a:80x", RequestHost.invalidMessage),
        ("GET / HTTP/1.1\r\nHost: :80", RequestHost.invalidMessage), ("GET / HTTP/1.1\r\nHost: a@b", RequestHost.invalidMessage),
        ("GET / HTTP/1.1\r\nHost: [::1", RequestHost.invalidMessage), ("GET / HTTP/1.1\r\nHost: [::1]x", RequestHost.invalidMessage),
        ("GET / HTTP/1.1\r\nHost: a:123456", RequestHost.invalidMessage), ("GET / HTTP/1.0\r\nHost: a, b", RequestHost.invalidMessage),
    ])
    func refusedHosts(text: String, message: String) {
        let refusal = Self.check(text)
        #expect(refusal?.status == 400, "\(text.debugDescription)")
        #expect(refusal?.message == message, "\(text.debugDescription)")
    }
}
