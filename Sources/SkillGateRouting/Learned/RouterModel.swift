#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkillGateCore

/// The learned router's weights: a logistic regression over the named features of
/// `RouterFeature` and hashed n-grams. `skillgate route train` writes it as JSON; the config's
/// `routing.model` points at such a file; `DefaultRouterModel` is the one trained on the
/// evaluation corpus's dev split.
///
/// `p(strong) = σ(bias + Σ named[f] × level(f) + Σ hashed[bucket] × value)`.
public struct RouterModel: Sendable {
    /// The file format's name and version; a file with another is refused.
    public static let format = "skillgate-router/1"

    /// Bits of the n-gram bucket index (2^hashBits buckets).
    public let hashBits: Int
    public var bias: Double
    /// Weights in `RouterFeature.allCases` order.
    public var named: [Double]
    /// One weight per bucket (dense; zero where training saw nothing).
    public var hashed: [Float]
    /// The probability at or above which the strong tier is chosen.
    public var threshold: Double
    /// Where the weights came from (training file, examples, options), shown by `route explain`.
    public var provenance: String

    public init(hashBits: Int, bias: Double = 0, named: [Double]? = nil, hashed: [Float]? = nil, threshold: Double = 0.5, provenance: String = "") {
        precondition((8...24).contains(hashBits), "hashBits must be 8...24")
        self.hashBits = hashBits
        self.bias = bias
        self.named = named ?? [Double](repeating: 0, count: RouterFeature.allCases.count)
        self.hashed = hashed ?? [Float](repeating: 0, count: 1 << hashBits)
        self.threshold = threshold
        self.provenance = provenance
    }

    /// The log-odds of `strong` for `input`, split into the named part and the n-gram parts.
    @inline(__always)
    public func logit(_ input: RouterInput) -> (named: Double, grams: Double) {
        var n = bias
        for i in named.indices { n += named[i] * input.levels[i] }
        var g: Float = 0
        hashed.withUnsafeBufferPointer { w in
            for k in input.buckets.indices { g += w[Int(input.buckets[k])] * input.values[k] }
        }
        return (n, Double(g))
    }

    /// The weight of a named feature.
    public subscript(feature: RouterFeature) -> Double {
        get { named[feature.rawValue] }
        set { named[feature.rawValue] = newValue }
    }
}

/// A model file that cannot be used, with what is wrong.
public struct RouterModelError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension RouterModel {
    /// The model as JSON: named weights by name, non-zero bucket weights as two parallel arrays.
    public func json() -> JSONValue {
        var namedObject = JSONObject()
        for f in RouterFeature.allCases { namedObject.append(f.name, .double(Self.rounded(named[f.rawValue]))) }
        var indices: [JSONValue] = [], weights: [JSONValue] = []
        for (i, w) in hashed.enumerated() where w != 0 {
            indices.append(.int(i))
            weights.append(.double(Self.rounded(Double(w))))
        }
        return .object([
            "format": .string(Self.format),
            "provenance": .string(provenance),
            "hash_bits": .int(hashBits),
            "threshold": .double(threshold),
            "bias": .double(Self.rounded(bias)),
            "named": .object(namedObject),
            "hashed": .object(["indices": .array(indices), "weights": .array(weights)]),
        ])
    }

    /// Six significant digits: the files stay small and diffable; scores move by < 1e-5.
    static func rounded(_ x: Double) -> Double {
        guard x != 0, x.isFinite else { return 0 }
        let digits = 6 - Int((log10(abs(x))).rounded(.up))
        let scale = pow(10.0, Double(digits))
        return (x * scale).rounded() / scale
    }

    /// Reads a model written by `json()`. Unknown named features are errors (a model trained by a
    /// newer SkillGate); missing ones weigh 0.
    public init(json: JSONValue) throws(RouterModelError) {
        guard json["format"]?.stringValue == Self.format else {
            throw RouterModelError("not a SkillGate router model (expected \"format\": \"\(Self.format)\"); write one with `skillgate route train`")
        }
        guard let bits = json["hash_bits"]?.intValue, (8...24).contains(bits) else {
            throw RouterModelError("\"hash_bits\" must be an integer from 8 to 24")
        }
        self.init(hashBits: bits, threshold: 0.5, provenance: json["provenance"]?.stringValue ?? "")
        if let t = json["threshold"] {
            guard let v = t.doubleValue, v > 0, v < 1 else { throw RouterModelError("\"threshold\" must be a probability between 0 and 1 (exclusive)") }
            threshold = v
        }
        guard let b = json["bias"]?.doubleValue, b.isFinite else { throw RouterModelError("\"bias\" must be a number") }
        bias = b
        guard let named = json["named"]?.objectValue else { throw RouterModelError("\"named\" must be an object of feature weights") }
        for member in named {
            guard let f = RouterFeature(name: member.key) else {
                throw RouterModelError("unknown feature \"\(member.key)\" in \"named\"; known: \(RouterFeature.allCases.map(\.name).joined(separator: ", "))")
            }
            guard let w = member.value.doubleValue, w.isFinite else { throw RouterModelError("\"named.\(member.key)\" must be a number") }
            self[f] = w
        }
        guard let indices = json["hashed"]?["indices"]?.arrayValue, let weights = json["hashed"]?["weights"]?.arrayValue,
              indices.count == weights.count else {
            throw RouterModelError("\"hashed\" must be {\"indices\": [...], \"weights\": [...]} of equal length")
        }
        for (i, w) in zip(indices, weights) {
            guard let index = i.intValue, index >= 0, index < hashed.count, let weight = w.doubleValue, weight.isFinite else {
                throw RouterModelError("\"hashed\" has an index outside 0..<\(hashed.count) or a weight that is not a number")
            }
            hashed[index] = Float(weight)
        }
    }

    /// Reads a model file's bytes.
    public init(bytes: [UInt8]) throws(RouterModelError) {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch { throw RouterModelError("the model file is not valid JSON (\(error))") }
        try self.init(json: value)
    }
}
