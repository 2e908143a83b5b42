import SkillGateCore

/// What a user message asks the demo model for, and which offered tool serves it.
///
/// Tools are matched by the words of their name and description (`current_time`, "Tells the
/// clock time", `get_weather`, `calculator`...), never by exact names only, so the demo works with
/// whatever skills a scenario offers.
enum DemoIntent: Sendable, Hashable {
    /// The time or the date.
    case time
    /// An arithmetic expression, as the user wrote it (`17*23`).
    case arithmetic(expression: String)
    /// The weather, with the place named in the message if there was one.
    case weather(location: String?)
    /// Nothing the demo recognises.
    case none

    /// The intent of `text`; arithmetic wins over weather, weather over time.
    static func detect(_ text: String) -> DemoIntent {
        let lower = text.lowercased()
        let words = Self.words(lower)
        if let expression = arithmeticExpression(in: text) { return .arithmetic(expression: expression) }
        if words.contains(where: { w in ["weather", "forecast", "temperature", "rain", "raining", "sunny", "snow"].contains(w) }) {
            return .weather(location: location(in: text))
        }
        if words.contains(where: { w in ["time", "date", "clock", "o'clock"].contains(w) }) || lower.contains("what day") {
            return .time
        }
        return .none
    }

    /// The words that mark a tool serving this intent (matched as prefixes of the tool's words).
    var toolKeywords: [String] {
        switch self {
        case .time: return ["time", "clock", "date"]
        case .arithmetic: return ["calculat", "arithmetic", "math", "evaluat", "expression", "compute"]
        case .weather: return ["weather", "forecast"]
        case .none: return []
        }
    }

    /// What the user asked about, for replies ("the time").
    var topic: String {
        switch self {
        case .time: return "the time"
        case .arithmetic(let e): return "the arithmetic \(DemoIntent.pretty(e))"
        case .weather(let place): return place.map { "the weather in \($0)" } ?? "the weather"
        case .none: return "something"
        }
    }

    /// The offered tool that best serves this intent: a keyword in the tool's name counts twice
    /// as much as one in its description; ties go to the earlier tool.
    func bestTool(in tools: [ToolDefinition]) -> ToolDefinition? {
        var best: (tool: ToolDefinition, score: Int)?
        for tool in tools {
            let score = DemoIntent.score(tool, keywords: toolKeywords)
            if score > 0, score > (best?.score ?? 0) { best = (tool, score) }
        }
        return best?.tool
    }

    /// The intent a tool serves, judged from its name and description (for replies after a result).
    static func served(by name: String, description: String?) -> DemoIntent {
        let tool = ToolDefinition(name: name, description: description)
        let candidates: [DemoIntent] = [.arithmetic(expression: ""), .weather(location: nil), .time]
        return candidates.max { score(tool, keywords: $0.toolKeywords) < score(tool, keywords: $1.toolKeywords) }
            .flatMap { score(tool, keywords: $0.toolKeywords) > 0 ? $0 : nil } ?? .none
    }

    /// Arguments for calling `tool` for this intent, filled from the tool's schema: the expression
    /// or place goes into the first string property; other required properties get plain defaults.
    func arguments(for tool: ToolDefinition, userText: String) -> JSONValue {
        let schema = tool.parameters
        let properties = schema["properties"]?.objectValue ?? JSONObject()
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        let mainValue: String?
        switch self {
        case .arithmetic(let expression): mainValue = expression
        case .weather(let place): mainValue = place ?? "your city"
        case .time: mainValue = nil
        case .none: mainValue = userText
        }
        var args = JSONObject()
        var mainPlaced = mainValue == nil
        for member in properties {
            let type = member.value["type"]?.stringValue
            if !mainPlaced, type == "string" || type == nil, let mainValue {
                args.append(member.key, .string(mainValue))
                mainPlaced = true
            } else if required.contains(member.key) {
                args.append(member.key, DemoIntent.defaultValue(name: member.key, schema: member.value))
            }
        }
        return .object(args)
    }

    // MARK: - Helpers

    private static func defaultValue(name: String, schema: JSONValue) -> JSONValue {
        if let first = schema["enum"]?.arrayValue?.first { return first }
        switch schema["type"]?.stringValue {
        case "integer", "number": return 0
        case "boolean": return false
        case "array": return []
        case "object": return [:]
        default:
            let lower = name.lowercased()
            return lower.contains("zone") || lower == "tz" ? "UTC" : ""
        }
    }

    private static func score(_ tool: ToolDefinition, keywords: [String]) -> Int {
        let nameWords = words(tool.name.lowercased())
        let descriptionWords = words((tool.description ?? "").lowercased())
        var score = 0
        for keyword in keywords {
            if nameWords.contains(where: { $0.hasPrefix(keyword) }) { score += 2 }
            if descriptionWords.contains(where: { $0.hasPrefix(keyword) }) { score += 1 }
        }
        return score
    }

    /// Lowercase words: letters, digits and apostrophes; `_`, `-` and everything else split.
    static func words(_ lower: String) -> [String] {
        lower.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'") }).map(String.init)
    }

    private static let expressionCharacters = Set("0123456789.+-*/×÷xX()^% ")
    private static let operators = Set("+-*/×÷xX^%")

    /// The longest run of arithmetic characters holding a digit, an operator and another digit.
    static func arithmeticExpression(in text: String) -> String? {
        var best: Substring = ""
        var runStart: String.Index?
        var index = text.startIndex
        while true {
            let atEnd = index == text.endIndex
            if !atEnd, expressionCharacters.contains(text[index]) {
                if runStart == nil { runStart = index }
            } else if let start = runStart {
                let run = trim(text[start..<index], " ")
                if isExpression(run), run.count > best.count { best = run }
                runStart = nil
            }
            if atEnd { break }
            index = text.index(after: index)
        }
        return best.isEmpty ? nil : String(best)
    }

    private static func isExpression(_ run: Substring) -> Bool {
        guard let firstDigit = run.firstIndex(where: \.isNumber) else { return false }
        let rest = run[firstDigit...]
        guard let op = rest.firstIndex(where: { operators.contains($0) }) else { return false }
        return rest[op...].contains(where: \.isNumber)
    }

    /// `17*23` → `17 × 23`.
    static func pretty(_ expression: String) -> String {
        var out = ""
        for ch in expression where ch != " " {
            switch ch {
            case "*", "x", "X", "×": out += " × "
            case "/", "÷": out += " ÷ "
            case "+", "-", "^", "%": out += " \(ch) "
            default: out.append(ch)
            }
        }
        return String(trim(out.split(separator: " ").joined(separator: " ")[...], " "))
    }

    /// `text` without the characters of `set` at either end.
    static func trim(_ text: Substring, _ set: String) -> Substring {
        guard let first = text.firstIndex(where: { !set.contains($0) }),
              let last = text.lastIndex(where: { !set.contains($0) }) else { return "" }
        return text[first...last]
    }

    private static let trailingTimeWords: Set<String> = ["today", "tomorrow", "now", "tonight", "right", "this", "week", "currently"]

    /// The place after "in", "for" or "at" (`What's the weather in New York today?` → `New York`).
    static func location(in text: String) -> String? {
        let tokens = text.split(separator: " ").map(String.init)
        guard let i = tokens.lastIndex(where: { ["in", "for", "at"].contains($0.lowercased()) }), i + 1 < tokens.count else { return nil }
        var place: [String] = []
        for token in tokens[(i + 1)...] {
            let cleaned = String(trim(token[...], "?!.,;:\"'"))
            if cleaned.isEmpty || trailingTimeWords.contains(cleaned.lowercased()) || place.count == 4 { break }
            if !(place.isEmpty && cleaned.lowercased() == "the") { place.append(cleaned) }
            if cleaned != String(trim(token[...], "\"'")) { break }  // punctuation ends the place
        }
        return place.isEmpty ? nil : place.joined(separator: " ")
    }
}
