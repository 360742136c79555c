import Foundation

/// A symmetric TSPLIB 95 instance (Reinelt 1991, "TSPLIB — A traveling salesman problem
/// library", ORSA J. Computing 3(4); format in the TSPLIB 95 documentation) with its own
/// integer distance function.
///
/// Supported `EDGE_WEIGHT_TYPE`s: `GEO` (coordinates DDD.MM = degrees and minutes; PI = 3.141592,
/// RRR = 6378.388 km, degrees truncated towards zero, distance truncated to an integer after
/// adding 1), `EUC_2D` (rounded), `CEIL_2D`, `ATT` (pseudo-Euclidean) and `EXPLICIT` with
/// `FULL_MATRIX`, `UPPER_ROW`, `LOWER_ROW`, `UPPER_DIAG_ROW`, `LOWER_DIAG_ROW` and the `_COL`
/// variants.
///
/// *Accuracy*: the distances are the integers the TSPLIB optima were computed with; the
/// published optimal tours' lengths are reproduced exactly (see the tests).
public struct TSPLIBInstance: Sendable, Hashable {
    /// `NAME`.
    public var name: String
    /// `DIMENSION`: number of nodes.
    public var dimension: Int
    /// `EDGE_WEIGHT_TYPE`.
    public var edgeWeightType: String
    /// Node coordinates in file order (x, y as given; GEO: latitude, longitude in DDD.MM).
    public var x: [Double]
    public var y: [Double]
    /// Explicit weights, row-major `dimension × dimension` (EXPLICIT only).
    public var weights: [Int]?

    /// Parses TSPLIB text.
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` naming the line.
    public static func parse(_ text: String, source: String = "<tsplib>") throws(RoutingError) -> TSPLIBInstance {
        var name = "", dimension = -1, type = "", format = ""
        var x: [Double] = [], y: [Double] = []
        var numbers: [Int] = []
        var section = ""
        var seen: [Bool] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (idx, raw) in lines.enumerated() {
            let lineNo = idx + 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            if line == "EOF" { break }
            if let colon = line.firstIndex(of: ":"), section.isEmpty || line.first!.isLetter {
                let key = line[..<colon].trimmingCharacters(in: .whitespaces).uppercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                section = ""
                switch key {
                case "NAME": name = value
                case "DIMENSION":
                    guard let d = Int(value), d > 0 else {
                        throw .malformedInput(source: source, line: lineNo, reason: "DIMENSION '\(value)' is not a positive integer")
                    }
                    dimension = d
                    x = [Double](repeating: .nan, count: d); y = x
                    seen = [Bool](repeating: false, count: d)
                case "TYPE":
                    guard value.hasPrefix("TSP") else {
                        throw .malformedInput(source: source, line: lineNo, reason: "TYPE \(value) is not a symmetric TSP")
                    }
                case "EDGE_WEIGHT_TYPE": type = value.uppercased()
                case "EDGE_WEIGHT_FORMAT": format = value.uppercased()
                default: break
                }
                continue
            }
            let upper = line.uppercased()
            if upper.hasSuffix("_SECTION") {
                section = upper
                if dimension < 0 { throw .malformedInput(source: source, line: lineNo, reason: "\(upper) before DIMENSION") }
                continue
            }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            switch section {
            case "NODE_COORD_SECTION":
                guard fields.count >= 3, let id = Int(fields[0]), let a = Double(fields[1]), let b = Double(fields[2]) else {
                    throw .malformedInput(source: source, line: lineNo, reason: "expected 'id x y', got '\(line)'")
                }
                guard (1...dimension).contains(id) else {
                    throw .malformedInput(source: source, line: lineNo, reason: "node id \(id) outside 1…\(dimension)")
                }
                guard !seen[id - 1] else { throw .malformedInput(source: source, line: lineNo, reason: "duplicate node id \(id)") }
                seen[id - 1] = true
                x[id - 1] = a; y[id - 1] = b
            case "EDGE_WEIGHT_SECTION":
                for f in fields {
                    guard let v = Int(f) ?? Double(f).map({ Int($0) }) else {
                        throw .malformedInput(source: source, line: lineNo, reason: "weight '\(f)' is not a number")
                    }
                    numbers.append(v)
                }
            case "": throw .malformedInput(source: source, line: lineNo, reason: "unexpected line '\(line)'")
            default: continue // DISPLAY_DATA_SECTION, FIXED_EDGES_SECTION, TOUR_SECTION: ignored
            }
        }
        guard dimension > 0 else { throw .malformedInput(source: source, line: nil, reason: "no DIMENSION") }
        var instance = TSPLIBInstance(name: name, dimension: dimension, edgeWeightType: type, x: x, y: y, weights: nil)
        switch type {
        case "GEO", "EUC_2D", "CEIL_2D", "ATT":
            if let missing = seen.firstIndex(of: false) {
                throw .malformedInput(source: source, line: nil, reason: "node \(missing + 1) has no coordinates")
            }
        case "EXPLICIT":
            instance.weights = try explicitMatrix(numbers, dimension, format, source)
        default:
            throw .malformedInput(source: source, line: nil, reason: "EDGE_WEIGHT_TYPE '\(type)' is not supported")
        }
        return instance
    }

    private static func explicitMatrix(_ v: [Int], _ n: Int, _ format: String, _ source: String) throws(RoutingError) -> [Int] {
        var w = [Int](repeating: 0, count: n * n)
        var cells: [(Int, Int)] = []
        // Column formats of a symmetric matrix list the same numbers as the mirrored row format.
        let f: String
        switch format {
        case "UPPER_COL": f = "LOWER_ROW"
        case "LOWER_COL": f = "UPPER_ROW"
        case "UPPER_DIAG_COL": f = "LOWER_DIAG_ROW"
        case "LOWER_DIAG_COL": f = "UPPER_DIAG_ROW"
        default: f = format
        }
        switch f {
        case "FULL_MATRIX": for i in 0..<n { for j in 0..<n { cells.append((i, j)) } }
        case "UPPER_ROW": for i in 0..<n { for j in (i + 1)..<max(i + 1, n) { cells.append((i, j)) } }
        case "LOWER_ROW": for i in 0..<n { for j in 0..<i { cells.append((i, j)) } }
        case "UPPER_DIAG_ROW": for i in 0..<n { for j in i..<n { cells.append((i, j)) } }
        case "LOWER_DIAG_ROW": for i in 0..<n { for j in 0...i { cells.append((i, j)) } }
        default: throw .malformedInput(source: source, line: nil, reason: "EDGE_WEIGHT_FORMAT '\(format)' is not supported")
        }
        guard v.count >= cells.count else {
            throw .malformedInput(source: source, line: nil,
                                  reason: "EDGE_WEIGHT_SECTION has \(v.count) numbers, \(format) needs \(cells.count)")
        }
        for (q, (i, j)) in cells.enumerated() { w[i * n + j] = v[q]; w[j * n + i] = v[q] }
        return w
    }

    /// TSPLIB's `nint`: round half up, as `(int)(x + 0.5)`.
    @inline(__always) private static func nint(_ v: Double) -> Int { Int(v + 0.5) }

    /// GEO coordinate DDD.MM to radians with TSPLIB's PI = 3.141592.
    @inline(__always) static func geoRadians(_ v: Double) -> Double {
        let pi = 3.141592
        let deg = v.rounded(.towardZero)
        let min = v - deg
        return pi * (deg + 5.0 * min / 3.0) / 180.0
    }

    /// The instance's integer distance between 0-based nodes i and j.
    public func distance(_ i: Int, _ j: Int) -> Int {
        if let weights { return weights[i * dimension + j] }
        if i == j { return 0 }
        switch edgeWeightType {
        case "GEO":
            let rrr = 6378.388
            let lati = Self.geoRadians(x[i]), loni = Self.geoRadians(y[i])
            let latj = Self.geoRadians(x[j]), lonj = Self.geoRadians(y[j])
            let q1 = cos(loni - lonj), q2 = cos(lati - latj), q3 = cos(lati + latj)
            return Int(rrr * acos(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)) + 1.0)
        case "ATT":
            let dx = x[i] - x[j], dy = y[i] - y[j]
            let r = ((dx * dx + dy * dy) / 10).squareRoot()
            let t = Self.nint(r)
            return Double(t) < r ? t + 1 : t
        case "CEIL_2D":
            let dx = x[i] - x[j], dy = y[i] - y[j]
            return Int((dx * dx + dy * dy).squareRoot().rounded(.up))
        default: // EUC_2D
            let dx = x[i] - x[j], dy = y[i] - y[j]
            return Self.nint((dx * dx + dy * dy).squareRoot())
        }
    }

    /// The full distance matrix.
    public func costMatrix() -> CostMatrix {
        var m = CostMatrix(count: dimension)
        for i in 0..<dimension {
            for j in (i + 1)..<max(i + 1, dimension) {
                let v = Double(distance(i, j))
                m[i, j] = v; m[j, i] = v
            }
        }
        return m
    }

    /// Length of the closed tour through 0-based nodes `tour`.
    public func tourLength(_ tour: [Int]) -> Int {
        guard tour.count > 1 else { return 0 }
        var s = distance(tour[tour.count - 1], tour[0])
        for k in 1..<tour.count { s += distance(tour[k - 1], tour[k]) }
        return s
    }

    /// Parses a TSPLIB `.tour` file into 0-based node indices.
    public static func parseTour(_ text: String, source: String = "<tour>") throws(RoutingError) -> [Int] {
        var inSection = false
        var tour: [Int] = []
        for (idx, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.uppercased() == "TOUR_SECTION" { inSection = true; continue }
            guard inSection, !line.isEmpty else { continue }
            if line == "EOF" { break }
            for f in line.split(separator: " ") {
                guard let v = Int(f) else {
                    throw .malformedInput(source: source, line: idx + 1, reason: "tour entry '\(f)' is not an integer")
                }
                if v == -1 { return tour }
                tour.append(v - 1)
            }
        }
        return tour
    }
}
