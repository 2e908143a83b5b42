@testable import SkillGateHTTP
import Testing

/// A handler's own framing headers never reach the wire: evhttp frames every reply itself, so a
/// `Transfer-Encoding`, or a `Content-Length` on a reply evhttp measures, could only disagree with it. Names match in
/// any case, and nothing else is taken for one.
@Suite struct EventLoopResponseHeadersTests {
    @Test(arguments: [
        ("Content-Length", false, true),
        ("content-length", false, true),
        ("CONTENT-LENGTH", true, false),   // kept where evhttp does not measure the body (streams, HEAD)
        ("Transfer-Encoding", false, true),
        ("transfer-ENCODING", true, true),
        ("x-skillgate-model", false, false),   // 17 bytes, like transfer-encoding
        ("x-content-length", false, false),
        ("content-lengthx", false, false),
        ("Content-Type", false, false),
    ])
    func framingHeadersAreRecognised(name: String, keepContentLength: Bool, isFraming: Bool) {
        #expect(ResponseHeadEncoder.isFramingField(name, keepContentLength: keepContentLength) == isFraming)
    }
}
