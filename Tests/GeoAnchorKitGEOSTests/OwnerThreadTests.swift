import Foundation
import Testing
import GeoAnchorKit
import GeoAnchorKitGEOS
import GeoAnchorKitPROJ

/// PROJ and GEOS owners used from several threads at once, one owner per thread (the documented
/// rule: a PJ_CONTEXT / GEOS context is never shared). Run once under ThreadSanitizer for issue 15
/// (`swift test -Xswiftc -sanitize=thread --filter OwnerThread`); here it checks that each
/// thread's results equal the single-threaded ones (same inputs → bit-identical outputs).
@Suite("Owners on several threads")
struct OwnerThreadTests {
    static func projWork(_ seed: Int) throws -> [Double] {
        let t = try ProjTransformer(from: "EPSG:4326", to: "EPSG:32633")
        return try (0..<200).flatMap { i -> [Double] in
            let r = try t.transform(x: 50 + Double((i + seed) % 50) * 0.01, y: 14 + Double(i % 30) * 0.01)
            return [r.x, r.y]
        }
    }

    static func geosWork(_ seed: Int) throws -> [Double] {
        let ctx = try GEOSContext()
        return try (0..<50).map { i in
            let d = Double(1 + (i + seed) % 7)
            return try ctx.point(PlanarPoint(x: Double(i), y: 0)).buffer(d, quadrantSegments: 8).area()
        }
    }

    @Test func ownersPerThreadGiveTheSingleThreadedResults() throws {
        let threads = 8
        let expectedProj = try (0..<threads).map { try Self.projWork($0) }
        let expectedGeos = try (0..<threads).map { try Self.geosWork($0) }
        let lock = NSLock()
        nonisolated(unsafe) var proj = [[Double]](repeating: [], count: threads)
        nonisolated(unsafe) var geos = [[Double]](repeating: [], count: threads)
        DispatchQueue.concurrentPerform(iterations: threads) { k in
            let p = (try? Self.projWork(k)) ?? [], g = (try? Self.geosWork(k)) ?? []
            lock.lock(); proj[k] = p; geos[k] = g; lock.unlock()
        }
        #expect(proj == expectedProj)
        #expect(geos == expectedGeos)
    }
}
