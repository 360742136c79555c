// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for GeoAnchorKit's parsers (issue 15). Not built by CI. Build and run:
//
//   cd Fuzz && swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld --product FuzzGPX
//   .build/debug/FuzzGPX -max_total_time=60 Corpus/GPX   (libFuzzer flags; Corpus/<target> holds seeds)
//
// One product at a time (--product): building everything would also link the root package's
// geobench with -sanitize=fuzzer, which has no fuzz entry point. lld: gold crashes on these links.
// Adding a parser: one line in `parsers` below and one file Sources/Fuzz<Name>/main.swift that
// calls `FuzzSupport.main { data in … }` with the parsing (see FuzzGeoJSON).
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
