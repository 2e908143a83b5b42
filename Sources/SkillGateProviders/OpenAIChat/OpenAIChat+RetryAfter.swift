import Foundation
import SkillGateHTTP

/// Reads how long to wait before retrying from `retry-after-ms` (OpenAI) or `Retry-After`
/// (delay seconds or an HTTP date, RFC 9110 §10.2.3).
enum OpenAIChatRetryAfter {
    /// Seconds to wait, or `nil` when the headers do not say.
    static func seconds(from headers: HTTPHeaders, now: Date = Date()) -> Double? {
        if let ms = headers["retry-after-ms"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), ms >= 0 {
            return ms / 1000
        }
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value) { return seconds >= 0 ? seconds : nil }
        guard let date = httpDate(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), also RFC 850 and asctime forms.
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "GMT")
            f.dateFormat = format
            if let d = f.date(from: text) { return d }
        }
        return nil
    }
}
