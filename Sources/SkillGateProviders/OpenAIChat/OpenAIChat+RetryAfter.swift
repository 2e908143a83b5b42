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
        return RetryAfterHeader.seconds(headers["retry-after"], now: now)
    }
}
