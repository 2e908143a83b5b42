import SkillGateHTTP
import Testing

/// A request's body is a value to its readers, but a handler that has decoded it can free it for every copy
/// (`releaseBody`, decision 0036): the event loop keeps its own copy of the request until the handler returns.
@Suite struct HTTPServerRequestTests {
    @Test func releasingTheBodyEmptiesItForEveryCopy() {
        let request = HTTPServerRequest(method: "POST", path: "/v1/chat/completions", body: Array("{\"a\":1}".utf8))
        let kept = request
        #expect(kept.body == Array("{\"a\":1}".utf8))
        request.releaseBody()
        #expect(request.body.isEmpty)
        #expect(kept.body.isEmpty, "the loop's copy still held the body")
    }

    @Test func settingTheBodyGivesThatCopyItsOwn() {
        let original = HTTPServerRequest(method: "POST", path: "/", body: [1, 2, 3])
        var changed = original
        changed.body = [9]
        #expect(original.body == [1, 2, 3])
        original.releaseBody()
        #expect(original.body.isEmpty)
        #expect(changed.body == [9], "releasing one request's body emptied a copy that had its own")
    }
}
