import SkillGateCore
import SkillGateHTTP

/// The request fields the gateway reads to decide (`x-skillgate-scenario`, `x-skillgate-tier`,
/// `x-skillgate-cache-breakpoints`): each must be given at most once. The gateway read the first of two, and a proxy in
/// front may read the last, so the one it checked would not be the one obeyed (decision 0096, as for credentials given
/// twice in decision 0092).
enum GatewayFields {
    /// The value of `name`, or nil; a 400 naming it when it is given twice or more.
    static func once(_ headers: HTTPHeaders, _ name: String) throws(GatewayError) -> String? {
        switch headers.single(name) {
        case .success(let value): return value
        case .failure:
            throw GatewayError.invalidRequest("the `\(name)` header is given more than once; send it once", param: name)
        }
    }
}
