import Foundation

extension MagneticModel {
    /// The model with its coefficients advanced to one date: evaluate many points at that date
    /// without recomputing `g + (t − t₀)ġ`. Evaluation allocates nothing.
    public struct Snapshot: Sendable, Hashable {
        /// The date, decimal year.
        public let decimalYear: Double
        /// The model's validity window (decimal years).
        public let validFrom: Double, validUntil: Double
        @usableFromInline let maxDegree: Int
        @usableFromInline let table: [Double]

        /// The field at a geodetic position at ``decimalYear``.
        /// - Parameters:
        ///   - latitude: geodetic latitude, degrees in [−90, 90] (WGS84).
        ///   - longitude: degrees.
        ///   - ellipsoidalHeight: meters above the WGS84 ellipsoid (not MSL).
        /// - Returns: the field; NaN components for non-finite or out-of-range input (use
        ///   ``MagneticModel/field(at:decimalYear:)`` for validation).
        @inlinable
        public func field(latitude: Double, longitude: Double, ellipsoidalHeight: Double) -> MagneticField {
            table.withUnsafeBufferPointer { t in
                MagneticModel.evaluate(table: t, maxDegree: maxDegree, yearsFromTable: 0,
                                       latitude: latitude, longitude: longitude, ellipsoidalHeight: ellipsoidalHeight,
                                       decimalYear: decimalYear, validFrom: validFrom, validUntil: validUntil)
            }
        }
    }

    /// The model advanced to `decimalYear` (a decimal year such as 2026.5; see
    /// ``decimalYear(from:)``).
    public func snapshot(decimalYear: Double) -> Snapshot {
        let dt = decimalYear - epoch
        var t = table
        for i in Swift.stride(from: 0, to: t.count, by: Self.tableStride) {
            t[i] += dt * t[i + 2]
            t[i + 1] += dt * t[i + 3]
        }
        return Snapshot(decimalYear: decimalYear, validFrom: validFrom, validUntil: validUntil,
                        maxDegree: maxDegree, table: t)
    }

    /// The field at a geodetic position and date. No validation (NaN in, NaN out).
    /// - Parameters:
    ///   - latitude: geodetic latitude, degrees in [−90, 90] (WGS84).
    ///   - longitude: degrees.
    ///   - ellipsoidalHeight: meters above the WGS84 ellipsoid.
    ///   - decimalYear: e.g. 2027.5 (see ``decimalYear(from:)``); outside
    ///     ``validFrom``…``validUntil`` the result carries a ``MagneticWarning/outsideValidity(decimalYear:validFrom:validUntil:)``.
    @inlinable
    public func field(latitude: Double, longitude: Double, ellipsoidalHeight: Double, decimalYear: Double) -> MagneticField {
        table.withUnsafeBufferPointer { t in
            Self.evaluate(table: t, maxDegree: maxDegree, yearsFromTable: decimalYear - epoch,
                          latitude: latitude, longitude: longitude, ellipsoidalHeight: ellipsoidalHeight,
                          decimalYear: decimalYear, validFrom: validFrom, validUntil: validUntil)
        }
    }

    /// The field at a validated coordinate with an ellipsoidal height.
    /// - Throws: range errors (a height more than 1000 km below the ellipsoid),
    ///   ``GeoAnchorError/nonFinite(name:value:)`` for the date,
    ///   ``GeoAnchorError/verticalReferenceMismatch(expected:got:)`` for an MSL height.
    public func field(at coordinate: GeodeticCoordinate, decimalYear: Double) throws(GeoAnchorError) -> MagneticField {
        try coordinate.validate()
        guard coordinate.verticalReference == .ellipsoid else {
            throw .verticalReferenceMismatch(expected: .ellipsoid, got: coordinate.verticalReference)
        }
        guard decimalYear.isFinite else { throw .nonFinite(name: "decimalYear", value: decimalYear) }
        // 1000 km below the ellipsoid is inside the Earth (towards its centre the series diverges:
        // NaN at −6.378e6 m); above, far out, the field is merely extrapolated (a warning).
        try ValueRange.atLeast(-1_000_000, unit: "m").check(coordinate.height, name: "ellipsoidal height")
        return field(latitude: coordinate.latitude, longitude: coordinate.longitude,
                     ellipsoidalHeight: coordinate.height, decimalYear: decimalYear)
    }

    /// Decimal year of a date (UTC): year + (seconds since 1 January) / (seconds in that year),
    /// leap years included, as the WMM software computes it.
    public static func decimalYear(from date: Date) -> Double {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        let year = cal.component(.year, from: date)
        let start = cal.date(from: DateComponents(year: year, month: 1, day: 1))!
        let end = cal.date(from: DateComponents(year: year + 1, month: 1, day: 1))!
        return Double(year) + date.timeIntervalSince(start) / end.timeIntervalSince(start)
    }

    /// The spherical-harmonic synthesis (WMM report §1.2; GeomagnetismLibrary.c MAG_PcupLow,
    /// MAG_Summation, MAG_SecVarSummation, MAG_SummationSpecial, MAG_RotateMagneticVector).
    /// `table` holds Schmidt-prescaled coefficients (see ``table``); `yearsFromTable` is added
    /// as `g + Δt·ġ` (0 for a snapshot).
    @inlinable
    static func evaluate(table t: UnsafeBufferPointer<Double>, maxDegree nMax: Int, yearsFromTable dt: Double,
                         latitude: Double, longitude: Double, ellipsoidalHeight: Double,
                         decimalYear: Double, validFrom: Double, validUntil: Double) -> MagneticField {
        // Geodetic → geocentric spherical (r, φ′) through the one ECEF conversion of Geodesy.
        let p = Ellipsoid.wgs84.ecef(latitude: latitude, longitude: 0, ellipsoidalHeight: ellipsoidalHeight)
        let r = (p.x * p.x + p.z * p.z).squareRoot()
        let sinPhiC = p.z / r, cosPhiC = p.x / r          // x = sin φ′ = cos θ, z = cos φ′
        let (sinPhi, cosPhi) = Angle.sincos(degrees: latitude)
        let (sinLam, cosLam) = Angle.sincos(degrees: longitude)
        let ratio = referenceRadiusKilometers * 1000 / r

        var bx = 0.0, by = 0.0, bz = 0.0, sx = 0.0, sy = 0.0, sz = 0.0
        // Scratch: two Legendre rows (degrees n−1, n−2) for P and dP, and cos/sin mλ — 6·(N+1)
        // doubles (624 bytes for N = 12), small enough for the stack: no heap allocation.
        let w = nMax + 1
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 6 * w) { buf in
            buf.initialize(repeating: 0)
            let p1 = buf.baseAddress!, p2 = p1 + w, d1 = p2 + w, d2 = d1 + w
            let cm = d2 + w, sm = cm + w
            cm[0] = 1; sm[0] = 0
            if nMax >= 1 { cm[1] = cosLam; sm[1] = sinLam }
            var m = 2
            while m <= nMax {   // cos/sin of mλ by the angle-addition recurrence
                cm[m] = cm[m - 1] * cosLam - sm[m - 1] * sinLam
                sm[m] = cm[m - 1] * sinLam + sm[m - 1] * cosLam
                m += 1
            }
            p1[0] = 1; d1[0] = 0      // degree 0
            let x = sinPhiC, z = cosPhiC
            var radiusPower = ratio * ratio  // (a/r)^(n+2), starting at n = 0
            var n = 1
            while n <= nMax {
                radiusPower *= ratio
                let i0 = n * (n + 1) / 2
                var sumX = 0.0, sumY = 0.0, sumZ = 0.0, sumSX = 0.0, sumSY = 0.0, sumSZ = 0.0
                // Descending m: P(n, n) reads P(n−1, n−1) before that slot is overwritten, and
                // each slot m moves degree n−1 → row 2 while degree n goes into row 1.
                var mm = n
                while mm >= 0 {
                    let i = i0 + mm
                    // Gauss-normalized P(n,m)(x) and dP/dθ-type derivative (signs as MAG_PcupLow).
                    let pnm: Double, dpnm: Double
                    if mm == n {
                        pnm = z * p1[mm - 1]; dpnm = z * d1[mm - 1] + x * p1[mm - 1]
                    } else if n == 1 || mm == n - 1 {
                        pnm = x * p1[mm]; dpnm = x * d1[mm] - z * p1[mm]
                    } else {
                        let kk = t[5 * i + 4]
                        pnm = x * p1[mm] - kk * p2[mm]
                        dpnm = x * d1[mm] - z * p1[mm] - kk * d2[mm]
                    }
                    p2[mm] = p1[mm]; d2[mm] = d1[mm]
                    p1[mm] = pnm; d1[mm] = dpnm
                    let gd = t[5 * i + 2], hd = t[5 * i + 3]
                    let g = t[5 * i] + dt * gd, h = t[5 * i + 1] + dt * hd
                    let c = cm[mm], s = sm[mm], fm = Double(mm)
                    let gc = g * c + h * s, gs = g * s - h * c
                    let gdc = gd * c + hd * s, gds = gd * s - hd * c
                    sumX += gc * dpnm; sumSX += gdc * dpnm
                    sumY += gs * fm * pnm; sumSY += gds * fm * pnm
                    sumZ += gc * pnm; sumSZ += gdc * pnm
                    mm -= 1
                }
                let np1 = Double(n + 1)
                bx += radiusPower * sumX; sx += radiusPower * sumSX
                by += radiusPower * sumY; sy += radiusPower * sumSY
                bz -= radiusPower * np1 * sumZ; sz -= radiusPower * np1 * sumSZ
                n += 1
            }
            if Swift.abs(cosPhiC) > 1e-10 {
                by /= cosPhiC; sy /= cosPhiC
            } else {
                // At the geographic pole By/cos φ′ is 0/0: sum the limit directly with the
                // order-1 functions P(n,1)/cos φ′ (MAG_SummationSpecial).
                by = 0; sy = 0
                var pPrev2 = 0.0, pPrev = 1.0, power = ratio * ratio
                for n in 1...nMax {
                    power *= ratio
                    let i = n * (n + 1) / 2 + 1
                    let ps: Double
                    if n == 1 { ps = 1 } else {
                        let kk = Double((n - 1) * (n - 1) - 1) / Double((2 * n - 1) * (2 * n - 3))
                        ps = x * pPrev - kk * pPrev2
                    }
                    pPrev2 = n == 1 ? 1 : pPrev; pPrev = ps
                    let gd = t[5 * i + 2], hd = t[5 * i + 3]
                    let g = t[5 * i] + dt * gd, h = t[5 * i + 1] + dt * hd
                    by += power * (g * sm[1] - h * cm[1]) * ps
                    sy += power * (gd * sm[1] - hd * cm[1]) * ps
                }
            }
        }
        // Rotate from geocentric spherical to geodetic NED by ψ = φ′ − φ.
        let sinPsi = sinPhiC * cosPhi - cosPhiC * sinPhi
        let cosPsi = cosPhiC * cosPhi + sinPhiC * sinPhi
        return MagneticField(north: bx * cosPsi - bz * sinPsi, east: by, down: bx * sinPsi + bz * cosPsi,
                             northRate: sx * cosPsi - sz * sinPsi, eastRate: sy, downRate: sx * sinPsi + sz * cosPsi,
                             decimalYear: decimalYear, validFrom: validFrom, validUntil: validUntil,
                             ellipsoidalHeight: ellipsoidalHeight)
    }
}
