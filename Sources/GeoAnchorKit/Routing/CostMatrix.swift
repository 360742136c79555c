import Foundation

/// A dense square matrix of travel costs between `count` nodes, row-major:
/// `self[from, to]`. Entries are finite and ≥ 0 (infinite marks "no connection").
///
/// Used for distances (meters), walking durations (seconds), ascent and descent (meters).
/// The matrix need not be symmetric (walking durations uphill and downhill differ).
public struct CostMatrix: Sendable, Hashable {
    /// Number of nodes.
    public let count: Int
    /// `count × count` entries, row-major (`values[from * count + to]`).
    public private(set) var values: [Double]

    /// A matrix filled with `value`.
    public init(count: Int, repeating value: Double = 0) {
        precondition(count >= 0)
        self.count = count
        self.values = [Double](repeating: value, count: count * count)
    }

    /// A matrix from rows.
    /// - Throws: ``RoutingError/invalidCostMatrix(_:)`` when the rows are not square or an entry is
    ///   NaN or negative. `+∞` is allowed and means "no connection".
    public init(rows: [[Double]]) throws(RoutingError) {
        let n = rows.count
        var v = [Double]()
        v.reserveCapacity(n * n)
        for (i, row) in rows.enumerated() {
            guard row.count == n else {
                throw .invalidCostMatrix("row \(i) has \(row.count) entries, expected \(n)")
            }
            for (j, x) in row.enumerated() {
                guard !x.isNaN, x >= 0 else { throw .invalidCostMatrix("entry [\(i)][\(j)] = \(x) is not ≥ 0") }
                v.append(x)
            }
        }
        self.count = n
        self.values = v
    }

    /// A matrix computed by `body(from, to)` for every ordered pair (the diagonal is 0).
    public init(count: Int, _ body: (Int, Int) throws -> Double) rethrows {
        self.init(count: count)
        for i in 0..<count {
            for j in 0..<count where i != j { values[i * count + j] = try body(i, j) }
        }
    }

    /// The cost from node `from` to node `to`.
    public subscript(from: Int, to: Int) -> Double {
        get { values[from * count + to] }
        set { values[from * count + to] = newValue }
    }

    /// True when `self[i, j] == self[j, i]` for all pairs.
    public var isSymmetric: Bool {
        for i in 0..<count {
            for j in (i + 1)..<max(i + 1, count) where values[i * count + j] != values[j * count + i] { return false }
        }
        return true
    }

    /// The matrix restricted to `nodes` (in that order).
    public func submatrix(_ nodes: [Int]) -> CostMatrix {
        var m = CostMatrix(count: nodes.count)
        for (a, i) in nodes.enumerated() {
            for (b, j) in nodes.enumerated() { m.values[a * nodes.count + b] = values[i * count + j] }
        }
        return m
    }

    /// Sum of the costs along `path` (consecutive node indices).
    public func length(of path: [Int]) -> Double {
        var s = 0.0
        if path.count > 1 { for k in 1..<path.count { s += values[path[k - 1] * count + path[k]] } }
        return s
    }
}
