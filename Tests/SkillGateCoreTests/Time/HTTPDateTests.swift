import SkillGateCore
import Testing

@Suite struct HTTPDateTests {
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
                      "sun, 06 nov 1994 08:49:37 gmt"])
    func theThreeFormsOfRFC9110(text: String) {
        #expect(HTTPDate.secondsSince1970(text) == 784_111_777)
    }

    @Test(arguments: ["", "tomorrow", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                      "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "120"])
    func anythingElseIsNoDate(text: String) {
        #expect(HTTPDate.secondsSince1970(text) == nil)
    }
}
