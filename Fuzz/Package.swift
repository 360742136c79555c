// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for GeoAnchorKit's parsers (issue 15). Not built by CI. Build and run:
//
//   cd Fuzz && swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//   .build/debug/FuzzNMEA -max_total_time=60 Corpus/nmea      (corpus directories are optional)
//
// Adding a parser: one line in `parsers` below and one file Sources/Fuzz<Name>/main.swift that
// calls `FuzzSupport.run(_:_:_:)` with a closure parsing the bytes (see FuzzNMEA).
let parsers = ["NMEA", "GPX", "CSVTrace", "GeoJSON", "TSPLIB", "GTX", "WMM", "Tour"]

let package = Package(
    name: "GeoAnchorKitFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "GeoAnchorKit", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "GeoAnchorKit", package: "GeoAnchorKit")]),
    ] + parsers.map { name in
        .executableTarget(name: "Fuzz\(name)", dependencies: ["FuzzSupport", .product(name: "GeoAnchorKit", package: "GeoAnchorKit")])
    }
)
