import Foundation
import Testing
import GeoAnchorKit
import GeoAnchorKitGEOS

/// Smoke tests of the GEOS owner: every value below has an analytical reference (stated per
/// test), compared with a tolerance of 1e-9 relative unless stated otherwise.
@Suite("GEOS context and geometries")
struct GEOSContextTests {
    func square(_ s: Double, at o: PlanarPoint = PlanarPoint(x: 0, y: 0)) -> [PlanarPoint] {
        [o, o + PlanarPoint(x: s, y: 0), o + PlanarPoint(x: s, y: s), o + PlanarPoint(x: 0, y: s), o]
    }

    /// Reference: area s² and perimeter 4s of a square (exact in binary for s = 10).
    @Test func polygonAreaLengthAndRoundTrip() throws {
        let ctx = try GEOSContext()
        #expect(GEOSContext.version.hasPrefix("3."))
        let p = try ctx.polygon(shell: square(10))
        #expect(p.typeName == "Polygon")
        #expect(try p.area() == 100)
        #expect(try p.length() == 40)
        try p.validate()
        let (shell, holes) = try p.rings()
        #expect(shell == square(10) && holes.isEmpty)
        let withHole = try ctx.polygon(shell: square(10), holes: [square(2, at: PlanarPoint(x: 4, y: 4))])
        #expect(try withHole.area() == 96)
        #expect(try withHole.wkt() == "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4))")
    }

    /// Reference: GEOS buffers a point by a regular polygon with 4·q vertices on the circle, so the
    /// area is (n/2)·d²·sin(2π/n) with n = 4q (inscribed polygon formula). Tolerance 1e-9 relative.
    @Test(arguments: [1, 4, 8, 16]) func pointBufferArea(quadrantSegments q: Int) throws {
        let ctx = try GEOSContext()
        let d = 20.0
        let b = try ctx.point(PlanarPoint(x: 3, y: -7)).buffer(d, quadrantSegments: q)
        let n = Double(4 * q)
        let expected = n / 2 * d * d * sin(2 * .pi / n)
        #expect(abs(try b.area() - expected) <= 1e-9 * expected)
    }

    /// Reference: hand geometry. An L-shaped polygon's convex hull is the pentagon obtained by
    /// cutting the missing corner along its diagonal; a horizontal line through a square
    /// intersects it in a segment of the square's width; nearest points of a point and a line
    /// are the point and its perpendicular foot.
    @Test func hullIntersectionNearest() throws {
        let ctx = try GEOSContext()
        let l = try ctx.polygon(shell: [PlanarPoint(x: 0, y: 0), PlanarPoint(x: 2, y: 0), PlanarPoint(x: 2, y: 1),
                                        PlanarPoint(x: 1, y: 1), PlanarPoint(x: 1, y: 2), PlanarPoint(x: 0, y: 2), PlanarPoint(x: 0, y: 0)])
        #expect(try l.area() == 3)
        #expect(try l.convexHull().area() == 3.5)

        let path = try ctx.lineString([PlanarPoint(x: -5, y: 5), PlanarPoint(x: 15, y: 5)])
        let inside = try path.intersection(try ctx.polygon(shell: square(10)))
        #expect(try inside.length() == 10)
        #expect(try inside.points() == [PlanarPoint(x: 0, y: 5), PlanarPoint(x: 10, y: 5)])

        let pt = try ctx.point(PlanarPoint(x: 3, y: 9))
        let (a, b) = try path.nearestPoints(to: pt)
        #expect(a == PlanarPoint(x: 3, y: 5) && b == PlanarPoint(x: 3, y: 9))
        #expect(try path.distance(to: pt) == 4)
    }

    /// Reference: Douglas–Peucker definition. A zigzag of amplitude 0.1 m simplified with a
    /// 0.5 m tolerance keeps only its end points; with 0.05 m it keeps every vertex.
    @Test func topologyPreservingSimplify() throws {
        let ctx = try GEOSContext()
        let zig = (0...10).map { PlanarPoint(x: Double($0), y: $0 % 2 == 0 ? 0 : 0.1) }
        let line = try ctx.lineString(zig)
        #expect(try line.simplifiedPreservingTopology(tolerance: 0.5).points() == [zig[0], zig[10]])
        #expect(try line.simplifiedPreservingTopology(tolerance: 0.05).points().count == 11)
    }

    /// Prepared predicates agree with the plain square test (brute force on a grid).
    @Test func preparedPredicates() throws {
        let ctx = try GEOSContext()
        let prepared = try PreparedGeometry(ctx.polygon(shell: square(10)))
        for x in stride(from: -1.5, through: 11.5, by: 1.0) {
            for y in stride(from: -1.5, through: 11.5, by: 1.0) {
                let inside = x > 0 && x < 10 && y > 0 && y < 10
                #expect(try prepared.contains(ctx.point(PlanarPoint(x: x, y: y))) == inside)
            }
        }
        // Reference: distance from (13, 14) to the corner (10, 10) is 5 (3-4-5 triangle).
        let far = try ctx.point(PlanarPoint(x: 13, y: 14))
        #expect(try prepared.distance(to: far) == 5)
        let (onZone, onPoint) = try prepared.nearestPoints(to: far)
        #expect(onZone == PlanarPoint(x: 10, y: 10) && onPoint == PlanarPoint(x: 13, y: 14))
    }

    /// Bad input becomes typed errors; GEOS's own messages reach the error through the handler.
    @Test func errors() throws {
        let ctx = try GEOSContext()
        let open = [PlanarPoint(x: 0, y: 0), PlanarPoint(x: 1, y: 0), PlanarPoint(x: 1, y: 1), PlanarPoint(x: 0, y: 1)]
        #expect(caught { _ = try ctx.polygon(shell: open) }?.description.contains("polygon shell") == true)
        let parse = caught { _ = try ctx.geometry(wkt: "POLYGON ((0 0, 1 0") }
        if case .operationFailed(let function, let message)? = parse {
            #expect(function == "GEOSWKTReader_read_r")
            #expect(!message.isEmpty, "GEOS's message must reach the Swift error through the handler")
        } else {
            Issue.record("expected operationFailed, got \(String(describing: parse))")
        }
        // Self-intersecting "bow tie": GEOS names the problem and where it is.
        let bowtie = try ctx.geometry(wkt: "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
        let invalid = caught { try bowtie.validate() }
        if case .invalidGeometry(let reason)? = invalid {
            #expect(reason.contains("Self-intersection"), "\(reason)")
        } else {
            Issue.record("expected invalidGeometry, got \(String(describing: invalid))")
        }
        #expect(caught { _ = try ctx.point(PlanarPoint(x: .nan, y: 0)) } == .invalidInput(reason: "point (nan, 0.0) is not finite"))
        #expect(caught { _ = try ctx.lineString([PlanarPoint(x: 0, y: 0)]) } != nil)
        #expect(caught { _ = try ctx.point(PlanarPoint(x: 0, y: 0)).rings() } == .unexpectedType(expected: "Polygon", got: "Point"))
    }

    /// The GEOSError thrown by `body` (nil if none; a non-GEOS error fails the test).
    private func caught(_ body: () throws -> Void) -> GEOSError? {
        do { try body(); return nil } catch let e as GEOSError { return e } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    /// Two contexts in parallel tasks, each its own owner: no shared state (run under TSan
    /// manually with `swift test --sanitize=thread`).
    @Test func oneContextPerTask() async throws {
        try await withThrowingTaskGroup(of: Double.self) { group in
            for i in 1...4 {
                group.addTask {
                    let ctx = try GEOSContext()
                    var sum = 0.0
                    for _ in 0..<50 { sum += try ctx.point(PlanarPoint(x: 0, y: 0)).buffer(Double(i), quadrantSegments: 1).area() }
                    return sum
                }
            }
            var total = 0.0
            for try await s in group { total += s }
            // Reference: q = 1 gives a square with diagonal 2d: area 2d²; Σ 50·2·i² for i = 1…4 = 3000.
            #expect(abs(total - 3000) < 1e-9)
        }
    }

    /// Hostile values at the GEOS boundary, each a typed error naming the value. Before: a WKT of
    /// a point buffered by 1e300 m aborted the process (GEOS 3.11's trimmed WKT writer overflows a
    /// stack buffer from ~1e134: "stack smashing detected"); the buffer itself had area NaN;
    /// quadrantSegments beyond Int32 trapped in the conversion; the WKT reader took NaN, 1e400
    /// (+∞) and 100,000 nested collections (a stack overflow). Reference: the documented bounds
    /// (GEOSContext.maximumCoordinate 1e9 m, maximumWKTNesting 64, maximumQuadrantSegments 1000).
    @Test func hostileValuesAreRefused() throws {
        let ctx = try GEOSContext()
        let pt = try ctx.point(PlanarPoint(x: 0, y: 0))
        func invalid(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch { if case GEOSError.invalidInput(let r) = error { return r }; return "\(error)" }
        }
        #expect(invalid { _ = try pt.buffer(1e300) }?.hasPrefix("buffer distance 1e+300 m") == true)
        #expect(invalid { _ = try pt.buffer(-1e300) } != nil)
        #expect(invalid { _ = try pt.buffer(1, quadrantSegments: Int.max) }?.hasPrefix("quadrantSegments 9223372036854775807") == true)
        #expect(invalid { _ = try pt.buffer(1, quadrantSegments: 1_000_000_000) } != nil)
        #expect(invalid { _ = try pt.buffer(1, join: .mitre, mitreLimit: .nan) }?.hasPrefix("mitreLimit nan") == true)
        #expect(invalid { _ = try ctx.point(PlanarPoint(x: 1e300, y: 0)) }?.contains("1e+300") == true)
        #expect(invalid { _ = try ctx.lineString([PlanarPoint(x: 0, y: 0), PlanarPoint(x: 0, y: -1e10)]) }?.hasPrefix("LineString: point 1") == true)
        for wkt in ["POINT (NaN 1)", "POINT (1e400 0)", "POINT (inf 0)", "POINT (1e300 0)", "MULTIPOINT ((0 0), (0 1e136))"] {
            #expect(invalid { _ = try ctx.geometry(wkt: wkt) } != nil, "\(wkt)")
        }
        let nested = String(repeating: "GEOMETRYCOLLECTION (", count: 100_000) + "POINT (1 1)" + String(repeating: ")", count: 100_000)
        #expect(invalid { _ = try ctx.geometry(wkt: nested) } == "WKT nests more than 64 parentheses")
        // Within the bounds all is well: a 1e8 m buffer writes its WKT, an empty geometry reads.
        let big = try pt.buffer(1e8, quadrantSegments: 1)
        #expect(try big.wkt().hasPrefix("POLYGON ((100000000 0"))
        #expect(try ctx.geometry(wkt: "POLYGON EMPTY").isEmpty())
        #expect(try ctx.geometry(wkt: "GEOMETRYCOLLECTION (POINT (1 2), POLYGON ((0 0, 1 0, 1 1, 0 0)))").partCount() == 2)
    }
}
