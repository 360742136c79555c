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

    /// Largest `DIMENSION` accepted (the solvers' limit, ``VisitOrderSolver/maximumNodes``).
    public static let maximumDimension = VisitOrderSolver.maximumNodes
    /// Largest |coordinate| accepted: distances stay exact integers and tour lengths cannot overflow.
    public static let maximumCoordinate = 1e9
    /// Largest explicit weight accepted (2⁴⁰ ≈ 1.1e12): a tour of ``maximumDimension`` edges
    /// cannot overflow `Int`.
    public static let maximumWeight = 1 << 40

    /// Parses TSPLIB text.
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` naming the line.
    public static func parse(_ text: String, source: String = "<tsplib>") throws(RoutingError) -> TSPLIBInstance {
        var name = "", dimension = -1, type = "", format = ""
        // Coordinates are collected as read: memory follows what the file holds, not what
        // DIMENSION claims (a 99-byte file may claim a billion nodes).
        var coords: [(id: Int, x: Double, y: Double, line: Int)] = []
        var numbers: [Int] = []
        var section = ""
        var seen = Set<Int>()
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
                    guard d <= maximumDimension else {
                        throw .malformedInput(source: source, line: lineNo, reason: "DIMENSION \(d) exceeds the limit of \(maximumDimension) nodes")
                    }
                    dimension = d
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
                guard abs(a) <= maximumCoordinate, abs(b) <= maximumCoordinate else { // also NaN
                    throw .malformedInput(source: source, line: lineNo,
                                          reason: "coordinates (\(fields[1]), \(fields[2])) are not finite numbers within ±\(maximumCoordinate)")
                }
                guard seen.insert(id).inserted else { throw .malformedInput(source: source, line: lineNo, reason: "duplicate node id \(id)") }
                coords.append((id, a, b, lineNo))
            case "EDGE_WEIGHT_SECTION":
                for f in fields {
                    let v: Int
                    if let i = Int(f) { v = i } else if let d = Double(f) {
                        do { v = try Int(checking: d, "weight", rounding: .towardZero) } catch {
                            throw .malformedInput(source: source, line: lineNo, reason: error.description)
                        }
                    } else {
                        throw .malformedInput(source: source, line: lineNo, reason: "weight '\(f)' is not a number")
                    }
                    guard (0...maximumWeight).contains(v) else {
                        throw .malformedInput(source: source, line: lineNo, reason: "weight \(f) is outside 0…\(maximumWeight)")
                    }
                    numbers.append(v)
                }
            case "": throw .malformedInput(source: source, line: lineNo, reason: "unexpected line '\(line)'")
            default: continue // DISPLAY_DATA_SECTION, FIXED_EDGES_SECTION, TOUR_SECTION: ignored
            }
        }
        guard dimension > 0 else { throw .malformedInput(source: source, line: nil, reason: "no DIMENSION") }
        var instance = TSPLIBInstance(name: name, dimension: dimension, edgeWeightType: type, x: [], y: [], weights: nil)
        switch type {
        case "GEO", "EUC_2D", "CEIL_2D", "ATT":
            guard coords.count == dimension else {
                let missing = (1...dimension).first { !seen.contains($0) } ?? dimension
                throw .malformedInput(source: source, line: nil,
                                      reason: "node \(missing) has no coordinates")
            }
            instance.x = [Double](repeating: 0, count: dimension); instance.y = instance.x
            for c in coords { instance.x[c.id - 1] = c.x; instance.y[c.id - 1] = c.y }
        case "EXPLICIT":
            instance.weights = try explicitMatrix(numbers, dimension, format, source)
        default:
            throw .malformedInput(source: source, line: nil, reason: "EDGE_WEIGHT_TYPE '\(type)' is not supported")
        }
        return instance
    }

    private static func explicitMatrix(_ v: [Int], _ n: Int, _ format: String, _ source: String) throws(RoutingError) -> [Int] {
        // Column formats of a symmetric matrix list the same numbers as the mirrored row format.
        let f: String
        switch format {
        case "UPPER_COL": f = "LOWER_ROW"
        case "LOWER_COL": f = "UPPER_ROW"
        case "UPPER_DIAG_COL": f = "LOWER_DIAG_ROW"
        case "LOWER_DIAG_COL": f = "UPPER_DIAG_ROW"
        default: f = format
        }
        // The cells each format lists, row by row (n ≤ maximumDimension, so no overflow).
        let columns: (Int) -> Range<Int>
        switch f {
        case "FULL_MATRIX": columns = { _ in 0..<n }
        case "UPPER_ROW": columns = { i in (i + 1)..<max(i + 1, n) }
        case "LOWER_ROW": columns = { i in 0..<i }
        case "UPPER_DIAG_ROW": columns = { i in i..<n }
        case "LOWER_DIAG_ROW": columns = { i in 0..<(i + 1) }
        default: throw .malformedInput(source: source, line: nil, reason: "EDGE_WEIGHT_FORMAT '\(format)' is not supported")
        }
        let needed = (0..<n).reduce(0) { $0 + columns($1).count }
        // Checked before the n × n matrix is allocated.
        guard v.count >= needed else {
            throw .malformedInput(source: source, line: nil,
                                  reason: "EDGE_WEIGHT_SECTION has \(v.count) numbers, \(format) needs \(needed)")
        }
        var w = [Int](repeating: 0, count: n * n)
        var q = 0
        for i in 0..<n {
            for j in columns(i) {
                // A symmetric TSP: a FULL_MATRIX whose two triangles differ is not one.
                if f == "FULL_MATRIX", j < i, w[i * n + j] != v[q] {
                    throw .malformedInput(source: source, line: nil,
                        reason: "FULL_MATRIX is not symmetric: weight(\(i + 1),\(j + 1)) = \(v[q]) but weight(\(j + 1),\(i + 1)) = \(w[i * n + j])")
                }
                w[i * n + j] = v[q]; w[j * n + i] = v[q]
                q += 1
            }
        }
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
                guard let v = Int(f), v == -1 || v >= 1 else {
                    throw .malformedInput(source: source, line: idx + 1, reason: "tour entry '\(f)' is not a node number ≥ 1")
                }
                if v == -1 { return tour }
                tour.append(v - 1)
            }
        }
        return tour
    }
}
