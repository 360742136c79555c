import Foundation

/// An SP3-c / SP3-d precise orbit file (positions in km and clocks in µs at a fixed interval,
/// ECEF, IGS frame), with interpolation.
///
/// Positions are interpolated with a Lagrange polynomial over the 10 nearest epochs (order 9,
/// sub-centimetre for 5–15 min GNSS orbits, Schenewerk 2003), clocks linearly between the two
/// bracketing epochs. Positions given as 0.000000 and clocks ≥ 999999 are "missing" (SP3-c §2)
/// and not used. The SP3 clock is the satellite's apparent clock; the periodic relativistic term
/// −2 r·v/c² is added by ``state(of:at:)`` (IGS convention: it is not in the product).
public struct PreciseOrbit: Sendable {
    /// Epochs as GPS time (s since 1980-01-06), strictly increasing.
    public var times: [Double]
    /// Per satellite: position (ECEF m) per epoch, NaN when missing.
    public var positions: [SatelliteID: [SIMD3<Double>]]
    /// Per satellite: clock offset (s) per epoch, NaN when missing.
    public var clocks: [SatelliteID: [Double]]
    public var timeSystem: GNSSTimeSystem

    /// Bound on the epoch count announced in a header (a corrupted header must not allocate
    /// without limit): 1 s epochs over 2 days.
    public static let maximumEpochs = 200_000

    public init(times: [Double] = [], positions: [SatelliteID: [SIMD3<Double>]] = [:], clocks: [SatelliteID: [Double]] = [:], timeSystem: GNSSTimeSystem = .gps) {
        self.times = times; self.positions = positions; self.clocks = clocks; self.timeSystem = timeSystem
    }

    public var satellites: [SatelliteID] { positions.keys.sorted() }

    public static func looksLike(firstLine: String) -> Bool {
        firstLine.hasPrefix("#c") || firstLine.hasPrefix("#d") || firstLine.hasPrefix("#a")
    }

    public static func read(contentsOf url: URL) throws(TraceFormatError) -> PreciseOrbit {
        try parse(ByteLineReader(url: url))
    }

    public static func read(data: Data, source: String) throws(TraceFormatError) -> PreciseOrbit {
        try parse(ByteLineReader(data: data, source: source))
    }

    /// Merges another file (e.g. consecutive days); epochs must not overlap.
    public mutating func merge(_ o: PreciseOrbit) {
        if times.isEmpty { self = o; return }
        let all = Array(Set(times + o.times)).sorted()
        var np: [SatelliteID: [SIMD3<Double>]] = [:], nc: [SatelliteID: [Double]] = [:]
        let sats = Set(positions.keys).union(o.positions.keys)
        let ia = Dictionary(times.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let ib = Dictionary(o.times.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let nanP = SIMD3<Double>(repeating: .nan)
        for s in sats {
            np[s] = all.map { t in
                if let i = ia[t], let p = positions[s]?[i], !p.x.isNaN { return p }
                if let i = ib[t], let p = o.positions[s]?[i] { return p }
                return nanP
            }
            nc[s] = all.map { t in
                if let i = ia[t], let c = clocks[s]?[i], !c.isNaN { return c }
                if let i = ib[t], let c = o.clocks[s]?[i] { return c }
                return .nan
            }
        }
        times = all; positions = np; clocks = nc
    }

    private static func parse(_ reader: ByteLineReader) throws(TraceFormatError) -> PreciseOrbit {
        var o = PreciseOrbit()
        var sawFirst = false
        var epochIndex = -1
        var lastLine = 0
        var announced = 0
        let source = reader.source
        let nanP = SIMD3<Double>(repeating: .nan)
        try forEachFixedWidthLine(reader) { (l: FixedWidthLine) throws(TraceFormatError) in
            lastLine = l.line
            if !sawFirst {
                guard l.bytes.count >= 2, l.bytes[0] == 35, [UInt8(ascii: "c"), UInt8(ascii: "d")].contains(l.bytes[1]) else {
                    throw l.error("not an SP3-c/d file (the first line must start with #c or #d)")
                }
                guard l.text(2, 1) == "P" || l.text(2, 1) == "V" else { throw l.error("SP3 position/velocity flag '\(l.text(2, 1))' is not P or V") }
                announced = try l.requiredInt(32, 7, "number of epochs", in: 0...maximumEpochs)
                sawFirst = true
                return
            }
            guard let c0 = l.bytes.first else { return }
            switch c0 {
            case 37: // '%'
                if l.text(0, 2) == "%c", epochIndex < 0 {
                    let ts = l.text(9, 3).trimmingCharacters(in: .whitespaces)
                    if let t = GNSSTimeSystem(rawValue: ts) { o.timeSystem = t }
                    else if ts != "ccc" && !ts.isEmpty { throw l.error("unknown SP3 time system '\(ts)'") }
                }
            case 42: // '*'
                let t = try l.calendar(year: (3, 4), month: (8, 2), day: (11, 2), hour: (14, 2), minute: (17, 2), second: (20, 11))
                let g = o.timeSystem.toGPS(t)
                if let last = o.times.last, g <= last { throw l.error("epoch is not after the previous one") }
                guard o.times.count < max(announced, 1) + 1 else { throw l.error("more epochs than the \(announced) the header announces") }
                o.times.append(g)
                epochIndex += 1
                for k in o.positions.keys { o.positions[k]!.append(nanP); o.clocks[k]!.append(.nan) }
            case 80: // 'P'
                guard epochIndex >= 0 else { throw l.error("position record before the first epoch") }
                guard let s = SatelliteID(l.text(1, 3)) else { throw l.error("'\(l.text(1, 3))' is not a satellite") }
                let x = try l.requiredDouble(4, 14, "\(s) x"), y = try l.requiredDouble(18, 14, "\(s) y"), z = try l.requiredDouble(32, 14, "\(s) z")
                let c = try l.double(46, 14, "\(s) clock") ?? 999_999.999999
                if o.positions[s] == nil {
                    o.positions[s] = Array(repeating: nanP, count: epochIndex + 1)
                    o.clocks[s] = Array(repeating: .nan, count: epochIndex + 1)
                }
                if x != 0 || y != 0 || z != 0 { o.positions[s]![epochIndex] = SIMD3(x, y, z) * 1000 }
                if c < 999_999 { o.clocks[s]![epochIndex] = c * 1e-6 }
            case 69: // 'E' (EOF)
                return
            default:
                return // '+', '++', '/*', '#' header and comment lines; 'V' velocities; 'EP'/'EV' correlations
            }
        }
        guard sawFirst else { throw TraceFormatError(source: source, line: nil, message: "empty file") }
        guard o.times.count >= 2 else { throw TraceFormatError(source: source, line: lastLine, message: "fewer than 2 epochs: nothing to interpolate") }
        return o
    }

    /// Lagrange order + 1 (points used).
    public static let interpolationPoints = 10
    /// 1/(i − j) for i − j in −k…k (index i − j + k), 0 at 0 (never used).
    static let reciprocalOffsets: [Double] = (-interpolationPoints...interpolationPoints).map { $0 == 0 ? 0 : 1 / Double($0) }

    /// Position (ECEF m), velocity (m/s, derivative of the interpolating polynomial) and clock
    /// (s, SP3 clock linearly interpolated plus the relativistic term −2 r·v/c²) at GPS time `t`.
    /// Nil outside the file's time span (no extrapolation beyond half an interval), or when any
    /// of the 10 points or the two clock points is missing.
    public func state(of sat: SatelliteID, at t: Double) -> (position: SIMD3<Double>, velocity: SIMD3<Double>, clock: Double, clockDrift: Double)? {
        guard let pos = positions[sat], let clk = clocks[sat] else { return nil }
        return state(pos, clk, at: t)
    }

    /// Linearly interpolated SP3 clock (s, without the relativistic term) of `sat` at `t`.
    public func clock(of sat: SatelliteID, at t: Double) -> Double? {
        guard let clk = clocks[sat], times.count >= 2 else { return nil }
        let n = times.count
        guard t >= times[0], t <= times[n - 1] else { return nil }
        var lo = 0, hi = n - 1
        while hi - lo > 1 { let m = (lo + hi) / 2; if times[m] <= t { lo = m } else { hi = m } }
        let ca = clk[lo], cb = clk[hi]
        guard !ca.isNaN, !cb.isNaN else { return nil }
        return ca + (cb - ca) * (t - times[lo]) / (times[hi] - times[lo])
    }

    func state(_ pos: [SIMD3<Double>], _ clk: [Double], at t: Double) -> (position: SIMD3<Double>, velocity: SIMD3<Double>, clock: Double, clockDrift: Double)? {
        guard times.count >= Self.interpolationPoints else { return nil }
        let n = times.count
        let dt = (times[n - 1] - times[0]) / Double(n - 1)
        guard t >= times[0] - dt / 2, t <= times[n - 1] + dt / 2 else { return nil }
        // Index of the last epoch ≤ t (binary search).
        var lo = 0, hi = n - 1
        while hi - lo > 1 { let m = (lo + hi) / 2; if times[m] <= t { lo = m } else { hi = m } }
        if t >= times[n - 1] { lo = n - 1 }
        let k = Self.interpolationPoints
        var start = lo - k / 2 + 1
        start = max(0, min(start, n - k))
        var p = SIMD3<Double>(), v = SIMD3<Double>()
        // Lagrange basis L_i(t) = Π_{j≠i} (t − t_j)/(t_i − t_j) and its derivative. On the usual
        // uniform grid the denominators are (i − j)·h: a table of reciprocals replaces 90 divisions.
        let h = times[start + 1] - times[start]
        let uniform = abs((times[start + k - 1] - times[start]) - Double(k - 1) * h) < 1e-6 * h
        let invH = 1 / h
        for i in start..<(start + k) {
            let pi = pos[i]
            if pi.x.isNaN { return nil }
            var li = 1.0
            var dli = 0.0
            for j in start..<(start + k) where j != i {
                let invDen = uniform ? Self.reciprocalOffsets[i - j + k] * invH : 1 / (times[i] - times[j])
                // derivative of the product: sum over m of (1/den_m) × prod of the others
                dli = dli * (t - times[j]) * invDen + li * invDen
                li *= (t - times[j]) * invDen
            }
            p += li * pi
            v += dli * pi
        }
        // Clock: linear between the bracketing epochs.
        let a = min(lo, n - 2), b = a + 1
        let ca = clk[a], cb = clk[b]
        guard !ca.isNaN, !cb.isNaN else { return nil }
        let drift = (cb - ca) / (times[b] - times[a])
        let c = ca + drift * (t - times[a])
        let c2 = GNSSConstants.speedOfLight * GNSSConstants.speedOfLight
        let rel = -2 * (p * v).sum() / c2
        return (p, v, c + rel, drift)
    }
}
