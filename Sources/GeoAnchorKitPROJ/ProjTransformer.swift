import CProj
import Foundation
import GeoAnchorKit

/// Direction of a PROJ transformation.
public enum ProjDirection: Sendable, Hashable {
    /// Source → target (pipeline: first step to last).
    case forward
    /// Target → source.
    case inverse

    @usableFromInline var pj: PJ_DIRECTION { self == .forward ? PJ_FWD : PJ_INV }
}

/// The units of the first two axes a transformer reads or writes.
public enum ProjAxisUnits: Sendable, Hashable {
    /// Geographic longitude, latitude in degrees (CRS-to-CRS transformers, after normalization).
    case degrees
    /// Geographic longitude, latitude in radians (raw `proj_create` pipelines without a
    /// `unitconvert` step).
    case radians
    /// Linear units (meters for projected, geocentric and topocentric coordinates, or as the CRS says).
    case linear
}

/// The owner of one PROJ context and one transformation object (`PJ_CONTEXT` + `PJ`).
///
/// Create it once and reuse it: creation costs ~0.1–10 ms (database look-ups for EPSG codes),
/// a transformation ~0.2–1 µs per point. It frees both handles in `deinit`
/// (`proj_destroy` before `proj_context_destroy`). PROJ's logging to stderr is switched off;
/// errors are read from the context right after the failing call and thrown as ``ProjError``.
///
/// **Threads.** An owner is deliberately *not* `Sendable`: a PROJ context must never be used by
/// two threads at once. Use one owner per thread or task, or borrow one from a
/// ``ProjTransformerPool``.
///
/// **Axis order.** CRS-to-CRS transformers (``init(from:to:)``) are normalized with
/// `proj_normalize_for_visualization`, so geographic coordinates are always
/// `x = longitude, y = latitude` in degrees (then `z` = ellipsoidal height in meters for 3-D
/// CRSs), and projected coordinates `x = easting, y = northing` — whatever axis order the EPSG
/// definition declares (EPSG:4326 is lat/lon; S-JTSK/Krovak EPSG:5514 is already east/north).
/// Pipelines (``init(pipeline:)``) follow PROJ's pipeline convention: `x = longitude,
/// y = latitude`, in **radians** unless the pipeline starts with
/// `+proj=unitconvert +xy_in=deg +xy_out=rad` (``sourceUnits`` tells which).
public final class ProjTransformer {
    /// The definition this transformer was made from: `"SOURCE → TARGET"` or the pipeline string.
    public let definition: String
    /// Units of `x`, `y` on the source side (forward input).
    public let sourceUnits: ProjAxisUnits
    /// Units of `x`, `y` on the target side (forward output).
    public let targetUnits: ProjAxisUnits

    // Owned handles. `pj` was created in `context` and is destroyed first.
    @usableFromInline let context: OpaquePointer
    @usableFromInline let pj: OpaquePointer
    /// Receives PROJ's error log lines for this context (kept alive as long as the context).
    private let log: ProjLogCapture

    /// A transformation between two CRSs, normalized to longitude/latitude (easting/northing)
    /// axis order.
    ///
    /// - Parameters:
    ///   - source: anything PROJ accepts as a CRS: `"EPSG:4979"`, `"EPSG:32633"`,
    ///     `"+proj=utm +zone=33 +datum=WGS84 +type=crs"`, WKT, PROJJSON.
    ///   - target: the same, for the output.
    /// - Throws: ``ProjError/invalidDefinition(_:code:message:)`` naming the definition that
    ///   PROJ could not use (e.g. an unknown EPSG code).
    /// - Accuracy: PROJ's; for conversions (projections) within their domain PROJ states
    ///   millimetre-level or better (the EPSG guidance examples in PROJ's `builtins.gie` pass to
    ///   the tolerances checked in `Tests/GeoAnchorKitPROJTests/ProjTransformerTests.swift`). Datum transformations use
    ///   the best operation PROJ finds for the point; without grids that may be a ballpark one.
    public init(from source: String, to target: String) throws(ProjError) {
        let (ctx, log) = try Self.makeContext()
        // Validate each CRS on its own, so the error names the one PROJ rejected.
        for crs in [source, target] {
            guard let obj = proj_create(ctx, crs) else {
                let e = Self.definitionError(ctx, log, crs)
                proj_context_destroy(ctx)
                throw e
            }
            let isCRS = proj_is_crs(obj) != 0
            proj_destroy(obj)
            guard isCRS else {
                proj_context_destroy(ctx)
                let hint = crs.hasPrefix("+") && !crs.contains("+type=crs") ? " (a PROJ string is a CRS only with +type=crs)" : ""
                throw .invalidDefinition(crs, code: 0, message: "not a coordinate reference system\(hint)")
            }
        }
        guard let raw = proj_create_crs_to_crs(ctx, source, target, nil) else {
            let e = Self.definitionError(ctx, log, "\(source) → \(target)")
            proj_context_destroy(ctx)
            throw e
        }
        // Lon/lat (east/north) order whatever the CRS declares.
        let norm = proj_normalize_for_visualization(ctx, raw)
        proj_destroy(raw)
        guard let norm else {
            let e = Self.definitionError(ctx, log, "\(source) → \(target)")
            proj_context_destroy(ctx)
            throw e
        }
        self.context = ctx
        self.log = log
        self.pj = norm
        self.definition = "\(source) → \(target)"
        self.hasInverse = true
        self.sourceUnits = Self.crsUnits(ctx, norm, source: true)
        self.targetUnits = Self.crsUnits(ctx, norm, source: false)
    }

    /// A transformation from a PROJ string or pipeline, e.g.
    /// `"+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=cart +ellps=WGS84"`.
    ///
    /// Pipelines take **radians** for angular input unless they convert units themselves; check
    /// ``sourceUnits``.
    /// - Throws: ``ProjError/invalidDefinition(_:code:message:)`` naming the pipeline.
    public init(pipeline: String) throws(ProjError) {
        let (ctx, log) = try Self.makeContext()
        guard let p = proj_create(ctx, pipeline) else {
            let e = Self.definitionError(ctx, log, pipeline)
            proj_context_destroy(ctx)
            throw e
        }
        guard proj_is_crs(p) == 0 else {
            proj_destroy(p)
            proj_context_destroy(ctx)
            throw .invalidDefinition(pipeline, code: 0, message: "a CRS, not a transformation (use init(from:to:))")
        }
        self.context = ctx
        self.log = log
        self.pj = p
        self.definition = pipeline
        self.hasInverse = proj_pj_info(p).has_inverse != 0
        self.sourceUnits = Self.pipelineUnits(p, input: true)
        self.targetUnits = Self.pipelineUnits(p, input: false)
    }

    deinit {
        proj_destroy(pj)             // the PJ first: it refers to its context
        proj_context_destroy(context)
    }

    // MARK: - Scalar

    /// Transforms one coordinate.
    ///
    /// - Parameters:
    ///   - x: first axis in the units of ``sourceUnits`` (forward) or ``targetUnits``
    ///     (inverse); for geographic CRSs the longitude.
    ///   - y: second axis, same units; for geographic CRSs the latitude.
    ///   - z: third axis (ellipsoidal height in meters for 3-D geographic CRSs); 0 by default.
    ///     2-D CRSs pass it through.
    ///   - direction: ``ProjDirection/forward`` (source → target) or ``ProjDirection/inverse``.
    /// - Throws: ``ProjError/nonFiniteCoordinate(name:value:)`` for non-finite input,
    ///   ``ProjError/invalidCoordinate(name:value:allowed:)`` for a
    ///   latitude outside [−90°, 90°]; ``ProjError/transformFailed(x:y:z:code:message:)`` when
    ///   PROJ fails (its errno and message read right after the call).
    public func transform(x: Double, y: Double, z: Double = 0,
                          direction: ProjDirection = .forward) throws(ProjError) -> (x: Double, y: Double, z: Double) {
        if let e = rejection(x: x, y: y, z: z, direction: direction) { throw e }
        let r = transformOne(x: x, y: y, z: z, direction: direction)
        guard r.code == 0, r.x.isFinite, r.y.isFinite, r.z.isFinite else {
            throw .transformFailed(x: x, y: y, z: z, code: r.code, message: message(r.code))
        }
        return (r.x, r.y, r.z)
    }

    /// One `proj_trans_generic` call on one coordinate: the output and PROJ's errno right after it.
    private func transformOne(x: Double, y: Double, z: Double, direction: ProjDirection) -> (x: Double, y: Double, z: Double, code: Int32) {
        var cx = x, cy = y, cz = z
        proj_errno_reset(pj)
        let stride = MemoryLayout<Double>.stride
        _ = proj_trans_generic(pj, direction.pj, &cx, stride, 1, &cy, stride, 1, &cz, stride, 1, nil, 0, 0)
        return (cx, cy, cz, proj_errno(pj))
    }

    // MARK: - Batch

    /// A round-trip tolerance for CRS-to-CRS transformers, meters: 10 km, well above the
    /// misses of PROJ picking another operation for the way back near the edge of an
    /// operation's area (≤ 133 m measured), well below the garbage some projections answer
    /// far outside their domain (≥ 5,000 km measured). See
    /// ``transform(x:y:z:direction:roundTripTolerance:)``.
    public static let crsRoundTripTolerance = 10_000.0

    /// Elements per `proj_trans_generic` call of the batch transform; each chunk's input is kept
    /// so that a failed element's error names its input.
    static let batchChunk = 4096

    /// Transforms coordinates in place with `proj_trans_generic` over contiguous buffers (one
    /// call per 4,096 elements, `batchChunk`).
    ///
    /// - Parameters:
    ///   - x: the first axis (units as in ``transform(x:y:z:direction:)``).
    ///   - y: the second axis, same count.
    ///   - z: the third axis, same count, or `nil` for 2-D use (treated as zeros).
    ///   - direction: ``ProjDirection/forward`` (source → target) or ``ProjDirection/inverse``.
    ///   - roundTripTolerance: nil (default): no check. A distance in meters: each converted
    ///     element is transformed back, and one that does not return to within this distance of
    ///     its input fails too (``ProjError/transformFailed(x:y:z:code:message:)`` with code 0,
    ///     naming where it came back to). Some projections answer far outside their domain
    ///     with finite garbage instead of an error: Krovak's (EPSG:5514) inverse of northing
    ///     +1e7 m comes back 1.2e7 m away, WGS 84 → Krovak of a point in Alaska 1e7 m away.
    ///     A pipeline (one operation) comes back to well below a millimetre within its domain,
    ///     so 0.01 m separates the two there. A CRS-to-CRS transformer picks its operation per
    ///     point, and near the edge of an operation's area of use the way back may take another
    ///     one (a ballpark instead of the datum shift): measured misses of 13.7 m (WGS 84 →
    ///     S-JTSK at the German border), 105 m (NAD27), 133 m (OSGB 36 off Scotland); use
    ///     10,000 m there (``crsRoundTripTolerance``), which still catches the garbage. Costs
    ///     a second transformation per element; skipped when the transformation has no inverse
    ///     (``hasInverse``). Degrees count 111,320 m per degree of latitude (longitude by its
    ///     cosine), radians 6,378,137 m; linear units are taken as meters.
    /// - Returns: the failed indices, in order. A failed element's outputs are not finite:
    ///   rejected input (non-finite, latitude outside [−90°, 90°]) is set to NaN and not given to
    ///   PROJ; PROJ's failures are `HUGE_VAL` (∞), and so is any non-finite output PROJ reports
    ///   no error for (an overflow, e.g. an affine offset of 1e308). Each failure carries a typed
    ///   error naming the element's input; a PROJ failure carries PROJ's errno and message for
    ///   that element (transformed once more alone, since a batch call reports one errno).
    ///   Empty when every element converted to finite values.
    /// - Precondition: equal counts (a programmer error otherwise).
    /// - Complexity: O(n); allocates the failure list and one copy of 4,096 inputs
    ///   (two with the round-trip check).
    @discardableResult
    public func transform(x: UnsafeMutableBufferPointer<Double>, y: UnsafeMutableBufferPointer<Double>,
                          z: UnsafeMutableBufferPointer<Double>? = nil,
                          direction: ProjDirection = .forward,
                          roundTripTolerance: Double? = nil) -> [ProjBatchFailure] {
        let n = x.count
        precondition(y.count == n && (z?.count ?? n) == n, "batch buffers differ in count")
        let tolerance = hasInverse ? roundTripTolerance : nil
        guard n > 0, let px = x.baseAddress, let py = y.baseAddress else { return [] }
        var failures: [ProjBatchFailure] = []
        var rejected: [Int] = []
        // Reject bad input up front: PROJ's answer to NaN or latitude 91° is not a typed error.
        for i in 0..<n {
            let zi = z?[i] ?? 0
            if _slowPath(!(x[i].isFinite && y[i].isFinite && zi.isFinite) || outOfRangeLatitude(y[i], direction)) {
                if let e = rejection(x: x[i], y: y[i], z: zi, direction: direction) {
                    failures.append(ProjBatchFailure(index: i, error: e))
                    rejected.append(i)
                    // Harmless placeholders for PROJ; replaced by NaN afterwards.
                    x[i] = 0; y[i] = 0; z?[i] = 0
                }
            }
        }
        let s = MemoryLayout<Double>.stride
        let chunk = Swift.min(n, Self.batchChunk)
        // The chunk's input, for naming a failed element's coordinate after PROJ overwrote it.
        let saved = UnsafeMutablePointer<Double>.allocate(capacity: 3 * chunk)
        defer { saved.deallocate() }
        // The chunk's outputs transformed back, for the round-trip check.
        let back = UnsafeMutablePointer<Double>.allocate(capacity: tolerance == nil ? 0 : 3 * chunk)
        defer { back.deallocate() }
        let reverse: ProjDirection = direction == .forward ? .inverse : .forward
        /// Copies elements lo..<lo+count of x, y, z (zeros without z) into `buffer`'s thirds.
        func copyChunk(_ lo: Int, _ count: Int, into buffer: UnsafeMutablePointer<Double>) {
            buffer.update(from: px + lo, count: count)
            (buffer + chunk).update(from: py + lo, count: count)
            if let pz = z?.baseAddress { (buffer + 2 * chunk).update(from: pz + lo, count: count) }
            else { (buffer + 2 * chunk).update(repeating: 0, count: count) }
        }
        var nextRejected = 0
        var lo = 0
        while lo < n {
            let count = Swift.min(chunk, n - lo)
            copyChunk(lo, count, into: saved)
            proj_errno_reset(pj)
            _ = proj_trans_generic(pj, direction.pj, px + lo, s, count, py + lo, s, count,
                                   z.map { $0.baseAddress! + lo }, z == nil ? 0 : s, z == nil ? 0 : count, nil, 0, 0)
            if tolerance != nil {
                copyChunk(lo, count, into: back)
                proj_errno_reset(pj)
                _ = proj_trans_generic(pj, reverse.pj, back, s, count, back + chunk, s, count,
                                       back + 2 * chunk, s, count, nil, 0, 0)
            }
            // Not only when PROJ set an errno: an overflow to ∞ or NaN comes without one.
            for i in lo..<(lo + count) {
                if nextRejected < rejected.count, rejected[nextRejected] == i { nextRejected += 1; continue }
                let k = i - lo
                let (ix, iy, iz) = (saved[k], saved[chunk + k], saved[2 * chunk + k])
                let finite = x[i].isFinite && y[i].isFinite && (z?[i].isFinite ?? true)
                if finite, let tolerance {
                    let (bx, by, bz) = (back[k], back[chunk + k], back[2 * chunk + k])
                    let miss = roundTripMiss(from: (ix, iy, iz), back: (bx, by, bz), direction: direction)
                    // `!(miss <= tolerance)`: a NaN miss (the way back failed) fails too.
                    if _slowPath(!(miss <= tolerance)) {
                        let message = "outside the transformation's domain: transformed back it gives (\(bx), \(by), \(bz)), "
                            + "\(miss.isFinite ? String(format: "%.3g", miss) : "an unknown distance") m from the input (round-trip tolerance \(tolerance) m)"
                        x[i] = .infinity; y[i] = .infinity; z?[i] = .infinity
                        failures.append(ProjBatchFailure(index: i, error: .transformFailed(x: ix, y: iy, z: iz, code: 0, message: message)))
                    }
                    continue
                }
                guard _slowPath(!finite) else { continue }
                // This element's own errno (the batch call's is the last failure's).
                let r = transformOne(x: ix, y: iy, z: iz, direction: direction)
                x[i] = .infinity; y[i] = .infinity; z?[i] = .infinity
                failures.append(ProjBatchFailure(index: i, error: .transformFailed(
                    x: ix, y: iy, z: iz, code: r.code, message: message(r.code))))
            }
            lo += count
        }
        for i in rejected { x[i] = .nan; y[i] = .nan; z?[i] = .nan }
        failures.sort { $0.index < $1.index }
        return failures
    }

    /// Array convenience over ``transform(x:y:z:direction:roundTripTolerance:)``:
    /// transforms `(x, y, z)` triples.
    /// - Returns: the outputs (non-finite at failed indices) and the failures.
    public func transform(_ points: [(x: Double, y: Double, z: Double)],
                          direction: ProjDirection = .forward,
                          roundTripTolerance: Double? = nil) -> (points: [(x: Double, y: Double, z: Double)], failures: [ProjBatchFailure]) {
        var xs = points.map(\.x), ys = points.map(\.y), zs = points.map(\.z)
        let failures = xs.withUnsafeMutableBufferPointer { bx in
            ys.withUnsafeMutableBufferPointer { by in
                zs.withUnsafeMutableBufferPointer { bz in
                    transform(x: bx, y: by, z: bz, direction: direction, roundTripTolerance: roundTripTolerance)
                }
            }
        }
        return ((0..<points.count).map { (xs[$0], ys[$0], zs[$0]) }, failures)
    }

    // MARK: - Helpers

    /// Whether the transformation can be run backwards: CRS-to-CRS transformers always (PROJ
    /// picks the inverse operation per point, although its `has_inverse` says 0 for them),
    /// pipelines when every step has an inverse (PROJ's `has_inverse`). The
    /// ``ProjDirection/inverse`` direction and the batch's round-trip check need it.
    public let hasInverse: Bool

    /// Meters between an input and its round trip, in the input's units (see the batch
    /// transform's `roundTripTolerance`).
    private func roundTripMiss(from a: (Double, Double, Double), back b: (Double, Double, Double),
                               direction: ProjDirection) -> Double {
        let dz = b.2 - a.2
        switch inputUnits(direction) {
        case .linear:
            let dx = b.0 - a.0, dy = b.1 - a.1
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        case .degrees, .radians:
            let perUnit = inputUnits(direction) == .degrees ? 111_320.0 : 6_378_137.0
            let turn = inputUnits(direction) == .degrees ? 360.0 : 2 * Double.pi
            var dlon = (b.0 - a.0).truncatingRemainder(dividingBy: turn)
            if dlon > turn / 2 { dlon -= turn } else if dlon < -turn / 2 { dlon += turn }
            let latitude = inputUnits(direction) == .degrees ? a.1 * Double.pi / 180 : a.1
            let dx = dlon * perUnit * Foundation.cos(latitude), dy = (b.1 - a.1) * perUnit
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        }
    }

    /// Units of the side a coordinate is *read* on for `direction`.
    private func inputUnits(_ direction: ProjDirection) -> ProjAxisUnits {
        direction == .forward ? sourceUnits : targetUnits
    }

    private func outOfRangeLatitude(_ y: Double, _ direction: ProjDirection) -> Bool {
        switch inputUnits(direction) {
        case .degrees: return Swift.abs(y) > 90
        // PROJ itself accepts up to π/2 plus a tiny tolerance; reject only clear violations.
        case .radians: return Swift.abs(y) > Double.pi / 2 * (1 + 1e-12)
        case .linear: return false
        }
    }

    /// The typed error for an input PROJ should not see, or nil when the input is acceptable.
    private func rejection(x: Double, y: Double, z: Double, direction: ProjDirection) -> ProjError? {
        let geographic = inputUnits(direction) != .linear
        if !x.isFinite { return .nonFiniteCoordinate(name: geographic ? "longitude" : "x", value: x) }
        if !y.isFinite { return .nonFiniteCoordinate(name: geographic ? "latitude" : "y", value: y) }
        if !z.isFinite { return .nonFiniteCoordinate(name: geographic ? "height" : "z", value: z) }
        if outOfRangeLatitude(y, direction) {
            let allowed: ValueRange = inputUnits(direction) == .degrees ? .closed(-90, 90, unit: "degrees")
                                                                         : .closed(-Double.pi / 2, Double.pi / 2, unit: "radians")
            return .invalidCoordinate(name: "latitude", value: y, allowed: allowed)
        }
        return nil
    }

    /// PROJ's message for an errno, from this owner's context.
    private func message(_ code: Int32) -> String {
        if code == 0 { return "the result is not finite (PROJ reports no error: an overflow)" }
        guard let m = proj_context_errno_string(context, code) else { return "unknown PROJ error" }
        return String(cString: m)
    }

    /// A new context whose log goes to a capture object instead of stderr.
    private static func makeContext() throws(ProjError) -> (OpaquePointer, ProjLogCapture) {
        guard let ctx = proj_context_create() else { throw .contextCreationFailed }
        // Library users decide what to print, not PROJ: nothing reaches stderr. Error-level
        // lines are captured (they name the cause, e.g. "crs not found") for ProjError messages.
        proj_log_level(ctx, PJ_LOG_NONE)
        let log = ProjLogCapture()
        proj_log_func(ctx, Unmanaged.passUnretained(log).toOpaque()) { app, _, message in
            guard let app, let message else { return }
            Unmanaged<ProjLogCapture>.fromOpaque(app).takeUnretainedValue().last = String(cString: message)
        }
        proj_log_level(ctx, PJ_LOG_ERROR)
        return (ctx, log)
    }

    /// Reads the context's errno (and PROJ's last error log line) right after a failed creation call.
    private static func definitionError(_ ctx: OpaquePointer, _ log: ProjLogCapture, _ definition: String) -> ProjError {
        let code = proj_context_errno(ctx)
        var text = proj_context_errno_string(ctx, code).map { String(cString: $0) } ?? "unknown PROJ error"
        if let detail = log.last, !detail.isEmpty {
            text = text.hasPrefix("Unknown error") ? detail : "\(text): \(detail)"
        }
        return .invalidDefinition(definition, code: code, message: text)
    }

    /// Units of a CRS-to-CRS transformer's side: degrees for geographic CRSs (normalized
    /// lon/lat), linear otherwise.
    private static func crsUnits(_ ctx: OpaquePointer, _ pj: OpaquePointer, source: Bool) -> ProjAxisUnits {
        guard let crs = source ? proj_get_source_crs(ctx, pj) : proj_get_target_crs(ctx, pj) else { return .linear }
        defer { proj_destroy(crs) }
        var type = proj_get_type(crs)
        if type == PJ_TYPE_BOUND_CRS, let base = proj_get_source_crs(ctx, crs) {
            type = proj_get_type(base)
            proj_destroy(base)
        }
        if type == PJ_TYPE_COMPOUND_CRS, let horizontal = proj_crs_get_sub_crs(ctx, crs, 0) {
            type = proj_get_type(horizontal)
            proj_destroy(horizontal)
        }
        switch type {
        case PJ_TYPE_GEOGRAPHIC_2D_CRS, PJ_TYPE_GEOGRAPHIC_3D_CRS, PJ_TYPE_GEOGRAPHIC_CRS: return .degrees
        default: return .linear
        }
    }

    private static func pipelineUnits(_ pj: OpaquePointer, input: Bool) -> ProjAxisUnits {
        let degrees = input ? proj_degree_input(pj, PJ_FWD) : proj_degree_output(pj, PJ_FWD)
        if degrees != 0 { return .degrees }
        let angular = input ? proj_angular_input(pj, PJ_FWD) : proj_angular_output(pj, PJ_FWD)
        return angular != 0 ? .radians : .linear
    }
}

/// Holds the last error line PROJ logged on one context (written by PROJ's log callback on the
/// thread that uses the context, read by the same owner right after a failing call).
final class ProjLogCapture {
    var last: String?
}
