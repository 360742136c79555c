// swift-tools-version:6.1
import PackageDescription

// GeoAnchorKit's benchmarks (ordo-one/package-benchmark). A nested package so that building or
// testing the root never pulls package-benchmark in. One executable target per suite, in
// `Benchmarks/<Suite>/<Suite>.swift`; add a suite by adding one `suite(...)` line below.
//
// Run: `cd Benchmarks && swift package --disable-sandbox benchmark --target Geodesy`
// Run: `cd Benchmarks && swift package --disable-sandbox benchmark --target Compass`
// Run: `cd Benchmarks && swift package --disable-sandbox benchmark --target Tours`
// Run: `cd Benchmarks && swift package --disable-sandbox benchmark --target GNSS`
// (all suites: `swift package --disable-sandbox benchmark`).
let package = Package(
    name: "GeoAnchorKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "GeoAnchorKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        suite("Geodesy", extra: ["GeoAnchorKitPROJ"]),
        suite("Routing"),
        suite("Traces"),
        suite("Geodesic", extra: ["GeoAnchorKitPROJ"]),
        suite("Filtering"),
        suite("Compass"),
        suite("Tours", extra: ["GeoAnchorKitGEOS"]),
        suite("Anchoring"),
        suite("GNSS"),
    ]
)

/// One benchmark suite: an executable target in `Benchmarks/<name>/` depending on GeoAnchorKit
/// (plus `extra` products of the root package) and on package-benchmark's plugin.
func suite(_ name: String, extra: [String] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "GeoAnchorKit", package: "GeoAnchorKit"),
            .product(name: "GeoAnchorKitSimulation", package: "GeoAnchorKit"),
        ] + extra.map { .product(name: $0, package: "GeoAnchorKit") },
        path: name,
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
