// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for GeoAnchorKit's parsers (issue 15). Not built by CI. Build and run:
//
//   cd Fuzz && swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld --product FuzzGPX
//   mkdir -p /tmp/gpx && .build/debug/FuzzGPX -max_total_time=60 /tmp/gpx Corpus/GPX
//   (libFuzzer flags; new inputs go to the first directory, Corpus/<target> holds the seeds;
//   ASAN_OPTIONS=detect_leaks=0 for GPX: LeakSanitizer reports a 72-byte leak inside FoundationXML on a malformed document)
//
// One product at a time (--product): building everything would also link the root package's
// geobench with -sanitize=fuzzer, which has no fuzz entry point. lld: gold crashes on these links.
// Seeds: Corpus/<target> (the repository's own fixtures; GnssLogger a synthetic log); add a directory
// of ../shared/data files as a further seed directory after it for real-world inputs.
// Adding a parser: one line in `parsers` below and one file Sources/Fuzz<Name>/main.swift that
// calls `FuzzSupport.main { data in … }` with the parsing (see FuzzGeoJSON).
let parsers = ["NMEA", "GPX", "CSVTrace", "GeoJSON", "TSPLIB", "GTX", "WMM", "Tour", "OSM",
               "KML", "TCX", "FIT", "UBX", "RINEX", "GnssLogger", "DEM", "Archive"]

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
