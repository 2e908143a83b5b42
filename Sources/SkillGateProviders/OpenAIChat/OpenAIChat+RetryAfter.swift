import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateHTTP

/// Reads how long to wait before retrying from `retry-after-ms` (OpenAI) or `Retry-After`
/// (delay seconds or an HTTP date, RFC 9110 §10.2.3).
enum OpenAIChatRetryAfter {
    /// Seconds to wait, or `nil` when the headers do not say.
    static func seconds(from headers: HTTPHeaders, now: Date = Date()) -> Double? {
        if let ms = headers["retry-after-ms"].flatMap({ Double($0.trimmingWhitespace()) }), ms >= 0 {
            return ms / 1000
        }
        guard let value = headers["retry-after"]?.trimmingWhitespace(), !value.isEmpty else { return nil }
        if let seconds = Double(value) { return seconds >= 0 ? seconds : nil }
        guard let date = httpDate(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), also RFC 850 and asctime forms.
    static func httpDate(_ text: String) -> Date? {
        HTTPDate.secondsSince1970(text).map { Date(timeIntervalSince1970: $0) }
    }
}
