import Foundation

/// A spherical-harmonic model of Earth's main magnetic field with linear secular variation,
/// read from a coefficient file in the official World Magnetic Model format (`WMM.COF`).
///
/// The model is immutable. Evaluate it with ``field(latitude:longitude:ellipsoidalHeight:decimalYear:)``
/// or, for many points at one date, take a ``MagneticModel/Snapshot`` once with
/// ``snapshot(decimalYear:)`` (the time-adjusted, Schmidt-normalized coefficients are computed
/// once; evaluating then allocates nothing).
///
/// Method (NOAA/BGS, *The US/UK World Magnetic Model for 2025–2030*, technical report, §1.2 and
/// the WMM `GeomagnetismLibrary.c`): the geodetic position is converted to geocentric spherical
/// coordinates on WGS84 (through ``Ellipsoid/ecef(latitude:longitude:ellipsoidalHeight:)``), the
/// field is summed to the file's degree (12 for WMM) with Schmidt semi-normalized associated
/// Legendre functions, and the spherical north/down components are rotated back to the
/// geodetic (ellipsoid-normal) frame. Coefficients are `g(t) = g(t₀) + (t − t₀)·ġ`.
///
/// - Accuracy: reproduces all 100 official WMM2025 test values
///   (`WMM2025_FINAL_TEST_VALUES_HIGHPREC.txt`): D and I to the file's 0.01°, X, Y, Z, H, F and
///   their rates to ≤ 7.2e-4 nT — the file prints 1e-6 nT, but NOAA's own `wmm-calculator`
///   differs from it by the same 7e-4 nT, and we agree with `wmm-calculator` to 1e-9 nT away
///   from the poles — and all 100 WMM2020 test values to their 0.1 nT / 0.01°
///   (Tests/GeoAnchorKitTests/Magnetics). At the geographic poles the east component uses the
///   limit formula (continuous with the regular one to 1e-3 nT). The *model* itself (not this
///   code) differs from the real main field by about 140 nT and, for declination,
///   `√(0.26² + (5417 nT/H)²)` degrees (WMM2025 error model), see
///   ``MagneticField/declinationUncertainty``.
public struct MagneticModel: Sendable, Hashable {
    /// The model's name from the file header, e.g. `"WMM-2025"`.
    public let name: String
    /// The release date text from the header, e.g. `"11/13/2024"`.
    public let releaseDate: String
    /// Reference epoch t₀ as a decimal year (e.g. 2025.0).
    public let epoch: Double
    /// Maximum spherical-harmonic degree and order in the file (12 for WMM).
    public let maxDegree: Int
    /// Where the coefficients came from (a path, or a caller-supplied name).
    public let source: String

    /// Reference radius of the spherical-harmonic expansion: 6371.2 km (WMM "geomagnetic
    /// reference radius").
    public static let referenceRadiusKilometers = 6371.2
    /// Years the model is valid after its epoch (WMM: 5).
    public static let validityYears = 5.0

    /// First decimal year of the validity window (the epoch).
    public var validFrom: Double { epoch }
    /// End of the validity window (epoch + 5 years), exclusive.
    public var validUntil: Double { epoch + Self.validityYears }

    // Interleaved per (n, m), index i = n(n+1)/2 + m, five doubles each:
    //   [5i] g, [5i+1] h (nT), [5i+2] ġ, [5i+3] ḣ (nT/yr) — all already multiplied by the
    //   Schmidt semi-normalization factor S(n, m), which turns the Gauss-normalized Legendre
    //   functions of the recursion into Schmidt semi-normalized ones (no per-point scaling);
    //   [5i+4] the Gauss recursion constant K(n, m) = ((n−1)² − m²) / ((2n−1)(2n−3)).
    @usableFromInline let table: [Double]
    @usableFromInline static let tableStride = 5

    /// Number of (n, m) pairs for degrees 0…`maxDegree`.
    @inlinable
    static func coefficientCount(maxDegree: Int) -> Int { (maxDegree + 1) * (maxDegree + 2) / 2 }

    /// Parses the text of a `WMM.COF` file.
    ///
    /// Format: a header line `EPOCH NAME RELEASE-DATE`, then one line `n m g h ġ ḣ` per
    /// coefficient (nT, nT/yr) for 1 ≤ n ≤ N, 0 ≤ m ≤ n, ended by a line of `9`s (or the end of
    /// the text). Every (n, m) up to the largest n must be present exactly once.
    /// - Parameters:
    ///   - text: the file contents.
    ///   - source: a name for error messages and ``source`` (usually the path).
    /// - Throws: ``GeoAnchorError/corruptFile(path:reason:)`` naming the line and the problem.
    public init(cofText text: String, source: String = "<text>") throws(GeoAnchorError) {
        var epoch: Double?
        var name = "", release = ""
        var rows: [(n: Int, m: Int, g: Double, h: Double, gd: Double, hd: Double, line: Int)] = []
        var lineNo = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNo += 1
            let fields = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            if fields[0].allSatisfy({ $0 == "9" }) && fields[0].count >= 6 { break }
            if epoch == nil {
                guard let e = Double(fields[0]), e.isFinite, e > 1000, e < 10000 else {
                    throw .corruptFile(path: source, reason: "line \(lineNo): header must start with the epoch as a decimal year, got '\(fields[0])'")
                }
                epoch = e
                name = fields.count > 1 ? String(fields[1]) : ""
                release = fields.count > 2 ? String(fields[2]) : ""
                continue
            }
            guard fields.count >= 6 else {
                throw .corruptFile(path: source, reason: "line \(lineNo): expected 6 fields 'n m g h gdot hdot', got \(fields.count)")
            }
            guard let n = Int(fields[0]), let m = Int(fields[1]), n >= 1, n <= 720, m >= 0, m <= n else {
                throw .corruptFile(path: source, reason: "line \(lineNo): invalid degree/order '\(fields[0]) \(fields[1])'")
            }
            var v = [Double](repeating: 0, count: 4)
            for k in 0..<4 {
                guard let x = Double(fields[2 + k]), x.isFinite else {
                    throw .corruptFile(path: source, reason: "line \(lineNo): coefficient '\(fields[2 + k])' is not a finite number")
                }
                v[k] = x
            }
            rows.append((n, m, v[0], v[1], v[2], v[3], lineNo))
        }
        guard let epoch else { throw .corruptFile(path: source, reason: "no header line") }
        guard let maxN = rows.map(\.n).max() else { throw .corruptFile(path: source, reason: "no coefficients") }
        // A file cut short after a complete degree (8 of WMM's 12) has no gap to detect: the
        // model family's defined degree says how far it must go.
        if let declared = Self.declaredDegree(modelName: name), maxN != declared {
            throw .corruptFile(path: source, reason: "\(name) models are degree \(declared), the file has coefficients up to degree \(maxN) (truncated?)")
        }
        let count = Self.coefficientCount(maxDegree: maxN)
        var g = [Double](repeating: 0, count: count), h = g, gd = g, hd = g
        var seen = [Bool](repeating: false, count: count)
        for r in rows {
            let i = r.n * (r.n + 1) / 2 + r.m
            if seen[i] { throw .corruptFile(path: source, reason: "line \(r.line): duplicate coefficient n=\(r.n) m=\(r.m)") }
            seen[i] = true
            g[i] = r.g; h[i] = r.h; gd[i] = r.gd; hd[i] = r.hd
        }
        if let missing = (1..<count).first(where: { !seen[$0] }) {
            let n = Int(((8 * Double(missing) + 1).squareRoot() - 1) / 2)
            throw .corruptFile(path: source, reason: "missing coefficient n=\(n) m=\(missing - n * (n + 1) / 2)")
        }
        try self.init(name: name, releaseDate: release, epoch: epoch, maxDegree: maxN,
                      g: g, h: h, gDot: gd, hDot: hd, source: source)
    }

    /// The degree a model family defines, from the COF header's model name: WMM (`WMM-2025`,
    /// `WMM2020`) 12, WMMHR 133, IGRF 13; nil for other names (then the highest degree present
    /// is taken, and every coefficient up to it must be present).
    public static func declaredDegree(modelName: String) -> Int? {
        let u = modelName.uppercased()
        if u.hasPrefix("WMMHR") { return 133 }
        if u.hasPrefix("WMM") { return 12 }
        if u.hasPrefix("IGRF") { return 13 }
        return nil
    }

    /// Creates a model from Gauss coefficients in Schmidt semi-normalization (nT, nT/yr).
    ///
    /// - Parameters: arrays indexed by `n(n+1)/2 + m` for 0 ≤ m ≤ n ≤ `maxDegree` (index 0,
    ///   the monopole, is ignored).
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:allowed:)`` for a wrong array length.
    public init(name: String, releaseDate: String = "", epoch: Double, maxDegree: Int,
                g: [Double], h: [Double], gDot: [Double], hDot: [Double],
                source: String = "<coefficients>") throws(GeoAnchorError) {
        guard maxDegree >= 1 else { throw .outOfRange(name: "maxDegree", value: Double(maxDegree), allowed: .atLeast(1)) }
        let count = Self.coefficientCount(maxDegree: maxDegree)
        for (label, a) in [("g", g), ("h", h), ("gDot", gDot), ("hDot", hDot)] where a.count != count {
            throw .outOfRange(name: "\(label).count for degree \(maxDegree)", value: Double(a.count), allowed: .exactly(Double(count)))
        }
        guard epoch.isFinite else { throw .nonFinite(name: "epoch", value: epoch) }
        self.name = name
        self.releaseDate = releaseDate
        self.epoch = epoch
        self.maxDegree = maxDegree
        self.source = source
        // Schmidt quasi-normalization factors, as MAG_PcupLow computes them.
        var schmidt = [Double](repeating: 1, count: count)
        var k = [Double](repeating: 0, count: count)
        for n in stride(from: 1, through: maxDegree, by: 1) {
            let i0 = n * (n + 1) / 2
            schmidt[i0] = schmidt[(n - 1) * n / 2] * Double(2 * n - 1) / Double(n)
            for m in 1...n {
                let factor = Double((n - m + 1) * (m == 1 ? 2 : 1)) / Double(n + m)
                schmidt[i0 + m] = schmidt[i0 + m - 1] * factor.squareRoot()
            }
            for m in 0...n where n > 1 {
                k[i0 + m] = Double((n - 1) * (n - 1) - m * m) / Double((2 * n - 1) * (2 * n - 3))
            }
        }
        var t = [Double](repeating: 0, count: count * Self.tableStride)
        for i in 0..<count {
            t[5 * i] = g[i] * schmidt[i]
            t[5 * i + 1] = h[i] * schmidt[i]
            t[5 * i + 2] = gDot[i] * schmidt[i]
            t[5 * i + 3] = hDot[i] * schmidt[i]
            t[5 * i + 4] = k[i]
        }
        self.table = t
    }

    /// Reads a `WMM.COF` file.
    /// - Throws: ``GeoAnchorError/fileNotFound(path:)`` or ``GeoAnchorError/corruptFile(path:reason:)``.
    public init(contentsOf url: URL) throws(GeoAnchorError) {
        guard let data = FileManager.default.contents(atPath: url.path),
              let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            throw .fileNotFound(path: url.path)
        }
        try self.init(cofText: text, source: url.path)
    }
}
