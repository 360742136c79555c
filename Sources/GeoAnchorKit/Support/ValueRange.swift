/// The values a quantity accepts, as typed bounds (not prose), so code that catches
/// ``GeoAnchorError/outOfRange(name:value:allowed:)`` can read the limit it violated — e.g. to
/// clamp a slider or to say "at least 12 samples, 8 given".
public struct ValueRange: Sendable, Hashable, CustomStringConvertible {
    /// One end of the range.
    public enum Bound: Sendable, Hashable {
        /// No limit on this side (−∞ or +∞).
        case unbounded
        /// The value itself is allowed.
        case inclusive(Double)
        /// Only values strictly beyond it are allowed.
        case exclusive(Double)
    }

    /// The lower end.
    public var lower: Bound
    /// The upper end.
    public var upper: Bound
    /// The unit of the bounds and of the value ("m", "degrees", …); nil for counts and ratios.
    public var unit: String?

    public init(lower: Bound, upper: Bound, unit: String? = nil) {
        self.lower = lower
        self.upper = upper
        self.unit = unit
    }

    /// `[v, ∞)`.
    public static func atLeast(_ v: Double, unit: String? = nil) -> ValueRange {
        ValueRange(lower: .inclusive(v), upper: .unbounded, unit: unit)
    }

    /// `(v, ∞)`.
    public static func greaterThan(_ v: Double, unit: String? = nil) -> ValueRange {
        ValueRange(lower: .exclusive(v), upper: .unbounded, unit: unit)
    }

    /// `[a, b]`.
    public static func closed(_ a: Double, _ b: Double, unit: String? = nil) -> ValueRange {
        ValueRange(lower: .inclusive(a), upper: .inclusive(b), unit: unit)
    }

    /// Exactly `v` (`[v, v]`), e.g. a coefficient count fixed by a model's degree.
    public static func exactly(_ v: Double, unit: String? = nil) -> ValueRange {
        closed(v, v, unit: unit)
    }

    /// Every finite value, `(-∞, ∞)`: with ``check(_:name:)``, a finiteness check.
    public static func unbounded(unit: String? = nil) -> ValueRange {
        ValueRange(lower: .unbounded, upper: .unbounded, unit: unit)
    }

    /// Whether `x` lies in the range (NaN never does).
    public func contains(_ x: Double) -> Bool {
        guard !x.isNaN else { return false }
        switch lower {
        case .unbounded: break
        case .inclusive(let a): if x < a { return false }
        case .exclusive(let a): if x <= a { return false }
        }
        switch upper {
        case .unbounded: return true
        case .inclusive(let b): return x <= b
        case .exclusive(let b): return x < b
        }
    }

    /// Checks a configuration or input value: finite and in this range.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` for NaN or ±∞, else
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` with this range, naming the value.
    public func check(_ value: Double, name: String) throws(GeoAnchorError) {
        guard value.isFinite else { throw .nonFinite(name: name, value: value) }
        guard contains(value) else { throw .outOfRange(name: name, value: value, allowed: self) }
    }

    /// Interval notation with the unit, e.g. `[0, ∞) m`, `(0, 1]`, `= 12`.
    public var description: String {
        func n(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
        }
        let text: String
        if case .inclusive(let a) = lower, case .inclusive(let b) = upper, a == b {
            text = "= \(n(a))"
        } else {
            let l: String
            switch lower {
            case .unbounded: l = "(-∞"
            case .inclusive(let a): l = "[\(n(a))"
            case .exclusive(let a): l = "(\(n(a))"
            }
            let u: String
            switch upper {
            case .unbounded: u = "∞)"
            case .inclusive(let b): u = "\(n(b))]"
            case .exclusive(let b): u = "\(n(b)))"
            }
            text = "\(l), \(u)"
        }
        return unit.map { "\(text) \($0)" } ?? text
    }
}
