import Testing
@testable import SkillGateSkills

@Suite struct ExampleSimilarityTests {
    /// Dimension 0 is the language (English +1, Chinese −1), dimensions 1 and 2 the topic (music, weather).
    static func v(_ language: Float, music: Float = 0, weather: Float = 0) -> [Float] { [language * 3, music, weather] }

    static let examples: [[(vector: [Float], text: String)]] = [
        // play_music: English and Chinese examples about music.
        [(v(1, music: 1), "crank up some jazz"), (v(1, music: 0.8), "tunes please"), (v(-1, music: 1), "放首歌"),
         (v(-1, music: 0.9), "来点音乐")],
        // get_weather: English and Chinese examples about weather.
        [(v(1, weather: 1), "umbrella today?"), (v(1, weather: 0.9), "is it muggy out"), (v(-1, weather: 1), "要下雨吗"),
         (v(-1, weather: 0.8), "冷不冷")],
    ]

    @Test func aChineseRequestMeetsTheSkillWhoseExamplesShareItsTopicNotItsLanguage() {
        let scores = ExampleSimilarity.scores(query: Self.v(-1, weather: 1), queryText: "明天带伞吗", examples: Self.examples)
        #expect(scores[1] > scores[0], "\(scores)")
        let english = ExampleSimilarity.scores(query: Self.v(1, music: 1), queryText: "put on something by Coltrane", examples: Self.examples)
        #expect(english[0] > english[1], "\(english)")
    }

    @Test func withoutCentringTheLanguageWouldDecide() {
        // The raw cosines of this Chinese weather request favour the music skill's Chinese examples
        // about as much as the weather skill's English ones: what the centring takes away.
        let q = Self.v(-1, weather: 1)
        let raw = Self.examples.map { skill in skill.map { VectorMath.cosines(q, [$0.vector])[0] }.reduce(0, +) / Double(skill.count) }
        let centred = ExampleSimilarity.scores(query: q, queryText: "明天带伞吗", examples: Self.examples)
        #expect(centred[1] - centred[0] > raw[1] - raw[0])
    }

    @Test func aSkillWithoutExamplesGetsTheLowestScoreOfTheOthers() {
        var examples = Self.examples
        examples.append([])
        let scores = ExampleSimilarity.scores(query: Self.v(1, music: 1), queryText: "jazz", examples: examples)
        #expect(scores.count == 3 && scores[2] == scores[0...1].min())
    }

    @Test func vectorsOfAnotherLengthGiveZeros() {
        #expect(ExampleSimilarity.scores(query: [1, 2], queryText: "x", examples: Self.examples) == [0, 0])
    }

    @Test func blendScalesBothListsThenWeighsThem() {
        let blended = RelevanceFusion.blend([0, 4, 2], [10, 0, 5], secondWeight: 0.5)
        #expect(blended == [0.5, 0.5, 0.5])
        #expect(RelevanceFusion.blend([1, 3], [7, 7], secondWeight: 0.25) == [0, 0.75])
    }
}
