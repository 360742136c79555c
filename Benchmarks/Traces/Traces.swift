import Benchmark
import Foundation
import GeoAnchorKit

// Traces suite: streaming reader throughput and memory.
// Targets (issue 3): NMEA ≥ 1,000,000 sentences/s, GPX ≥ 200,000 points/s on one core, peak
// memory independent of file size (compare the small and large file runs' peak RSS).
// Files are written once into the temporary directory by TraceWriter from a synthetic walk.

/// Writes `fixes` synthetic fixes (GGA + RMC per fix for NMEA) to a temporary file once.
func traceFile(_ format: TraceFormat, fixes: Int) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoanchorkit-bench-\(fixes).\(format.rawValue)")
    if FileManager.default.fileExists(atPath: url.path) { return url }
    let w = try! TraceWriter(url: url, format: format)
    let t0 = 1_778_920_200.0
    for i in 0..<fixes {
        let t = t0 + Double(i)
        try! w.write(Fix(time: t, latitude: 49.96 + 1e-5 * Double(i % 1000), longitude: 14.39 + 1e-5 * Double(i % 777),
                         height: 350 + Double(i % 50) * 0.1, verticalReference: .meanSeaLevel, geoidSeparation: 45.6,
                         speed: 1.3, course: Double(i % 360), quality: .gps, satellites: 14, hdop: 0.8))
    }
    try! w.finish()   // benchmark set-up: a failure is a bug in the benchmark
    return url
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .peakMemoryResident, .mallocCountTotal]
    Benchmark.defaultConfiguration = .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 20)

    for fixes in [50_000, 500_000] {
        // 2 sentences per fix: 100k and 1M sentences.
        Benchmark("NMEA read, \(2 * fixes) sentences (GGA+RMC) from a file") { benchmark in
            let url = traceFile(.nmea, fixes: fixes)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                var n = 0
                _ = try NMEAReader.read(ByteLineReader(url: url)) { f in n &+= Int(f.latitude) }
                blackHole(n)
            }
        }
    }
    for fixes in [20_000, 200_000] {
        Benchmark("GPX read, \(fixes) track points from a file") { benchmark in
            let url = traceFile(.gpx, fixes: fixes)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                var n = 0
                _ = try GPXReader.read(url: url) { f in n &+= Int(f.latitude) }
                blackHole(n)
            }
        }
    }
    xmlFloor()
    Benchmark("CSV read, 200000 fixes from a file") { benchmark in
        let url = traceFile(.csv, fixes: 200_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var n = 0
            _ = try CSVTraceReader.read(ByteLineReader(url: url)) { f in n &+= Int(f.latitude) }
            blackHole(n)
        }
    }
    writers()
}

/// Fix number `i` of a synthetic walk with every field a phone reports.
func phoneFix(_ i: Int) -> Fix {
    let k = Double(i)
    var f = Fix(time: 1_778_920_200 + k * 0.5, latitude: 49.96 + 1e-5 * Double(i % 1000),
                longitude: 14.39 + 1e-5 * Double(i % 777))
    f.height = 350 + Double(i % 50) * 0.1
    f.verticalReference = .meanSeaLevel
    f.geoidSeparation = 45.6
    f.horizontalAccuracy = 3.2 + Double(i % 7)
    f.verticalAccuracy = 5.5
    f.speed = 1.3
    f.course = Double(i % 360)
    f.quality = .gps
    f.satellites = 14
    f.hdop = 0.8; f.vdop = 1.1; f.pdop = 1.4
    return f
}

/// 100 000 fixes with every field a phone reports, written to memory in each format.
/// Target (issue 13): every writer within 1.5× of the CSV writer's time.
let writers: @Sendable () -> Void = {
    for format in TraceFormat.writable {
        Benchmark("\(format.rawValue) write, 100000 fixes to memory") { benchmark in
            let fixes = (0..<100_000).map(phoneFix)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                var bytes = 0
                let w = TraceWriter(format: format) { bytes &+= $0.count }
                for f in fixes { try w.write(f) }
                try w.finish()
                blackHole(bytes)
            }
        }
    }
}

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A delegate that only counts elements: the floor of any XMLParser-based GPX reader.
final class CountingDelegate: NSObject, XMLParserDelegate {
    var elements = 0
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) { elements += 1 }
}

let xmlFloor: @Sendable () -> Void = {
    Benchmark("XMLParser floor: count elements of the 200000-point GPX (no GPX decoding)") { benchmark in
        let url = traceFile(.gpx, fixes: 200_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let d = CountingDelegate()
            let p = XMLParser(stream: InputStream(url: url)!)
            p.delegate = d
            blackHole(p.parse())
            blackHole(d.elements)
        }
    }
}
