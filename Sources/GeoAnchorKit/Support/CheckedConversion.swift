import Foundation

/// A number read from input that cannot become the integer (index, count, cell, millisecond)
/// the code needs: not finite, not whole where a whole number is required, or outside the range
/// the caller allows. Readers wrap it in their own typed error (``TraceFormatError``,
/// ``RoutingError``, ``GeoAnchorError``) with the file and line.
///
/// `Int(x)` on a `Double` traps for NaN, ±∞ and |x| ≥ 2⁶³; every conversion of a value that
/// came from input goes through `Int(checking:_:in:rounding:)` instead.
public struct IntegerConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the value is (e.g. `satellites`, `grid column`), as it appears in messages.
    public let name: String
    /// The offending value.
    public let value: Double
    /// The integers the caller accepts.
    public let range: ClosedRange<Int>
    /// True when the value had to be whole and was not.
    public let notWhole: Bool

    public init(name: String, value: Double, range: ClosedRange<Int>, notWhole: Bool = false) {
        self.name = name; self.value = value; self.range = range; self.notWhole = notWhole
    }

    public var description: String {
        if !value.isFinite { return "\(name) \(value) is not a finite number" }
        if notWhole { return "\(name) \(value) is not a whole number" }
        return "\(name) \(value) is outside \(range.lowerBound)…\(range.upperBound)"
    }
}

extension Int {
    /// Converts a `Double` from input to an `Int` in `range`, never trapping.
    ///
    /// - Parameters:
    ///   - value: the number (any `Double`, including NaN and ±∞).
    ///   - name: what it is, for the error message.
    ///   - range: accepted results (default: every `Int`).
    ///   - rounding: how a fractional value becomes whole; nil requires a whole number.
    /// - Throws: ``IntegerConversionError`` when the value is not finite, not whole (with
    ///   `rounding` nil), or rounds outside `range`.
    @inlinable
    public init(checking value: Double, _ name: String, in range: ClosedRange<Int> = Int.min...Int.max,
                rounding: FloatingPointRoundingRule? = .towardZero) throws(IntegerConversionError) {
        let r: Double
        if let rounding { r = value.rounded(rounding) } else {
            guard value.rounded(.towardZero) == value else {
                throw IntegerConversionError(name: name, value: value, range: range, notWhole: value.isFinite)
            }
            r = value
        }
        // Int(exactly:) is nil for NaN, ±∞ and anything beyond Int's range (never traps).
        guard let i = Int(exactly: r), range.contains(i) else {
            throw IntegerConversionError(name: name, value: value, range: range)
        }
        self = i
    }

    /// `a × b`, or nil when the product overflows `Int` (sizes read from input: rows × columns,
    /// dimension², bytes per cell).
    @inlinable
    public static func checkedProduct(_ a: Int, _ b: Int) -> Int? {
        let (p, o) = a.multipliedReportingOverflow(by: b)
        return o ? nil : p
    }

    /// `a + b`, or nil when the sum overflows `Int` (weights read from input).
    @inlinable
    public static func checkedSum(_ a: Int, _ b: Int) -> Int? {
        let (s, o) = a.addingReportingOverflow(b)
        return o ? nil : s
    }
}
