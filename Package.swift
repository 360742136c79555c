// swift-tools-version:6.1
import PackageDescription

// The root package stays light: CI builds it from scratch every run. Benchmarks live in the
// nested `Benchmarks/` package so `swift build` / `swift test` here never pull them in.
let package = Package(
    name: "GeoAnchorKit",
    platforms: [.macOS(.v13), .iOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "GeoAnchorKit", targets: ["GeoAnchorKit"]),
        .library(name: "GeoAnchorKitPROJ", targets: ["GeoAnchorKitPROJ"]),
        .library(name: "GeoAnchorKitGEOS", targets: ["GeoAnchorKitGEOS"]),
        .library(name: "GeoAnchorKitSimulation", targets: ["GeoAnchorKitSimulation"]),
        .executable(name: "geobench", targets: ["geobench"]),
    ],
    // The command-line tool's dependency sits behind a default trait: an app that depends on the
    // library with `traits: []` resolves and builds nothing but the core (no argument parser, no
    // plugins, no PROJ/GEOS system-library lookups). See Examples/TourApp.
    traits: [
        .trait(name: "CommandLineTool", description: "Builds geobench's dependencies (swift-argument-parser)."),
        .default(enabledTraits: ["CommandLineTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CProj",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"]), .brew(["proj"])]
        ),
        .systemLibrary(
            name: "CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"]), .brew(["geos"])]
        ),
        // Pure Swift: must never import CProj/CGEOS so that an iOS app can link it alone.
        .target(name: "GeoAnchorKit"),
        .target(name: "GeoAnchorKitPROJ", dependencies: ["GeoAnchorKit", "CProj"]),
        .target(name: "GeoAnchorKitGEOS", dependencies: ["GeoAnchorKit", "CGEOS"]),
        // Simulators and scenario builders with ground truth, for tests, benchmarks and geobench:
        // not shipped to apps with the core.
        .target(name: "GeoAnchorKitSimulation", dependencies: ["GeoAnchorKit"]),
        .executableTarget(
            name: "geobench",
            dependencies: [
                "GeoAnchorKit", "GeoAnchorKitPROJ", "GeoAnchorKitGEOS", "GeoAnchorKitSimulation",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLineTool"])),
            ]
        ),
        // Test support shared by the test targets (third-party data lookup, PROJ gie reader, a
        // simulated walk): package access only, never a product.
        .target(name: "GeoAnchorKitTestSupport", dependencies: ["GeoAnchorKit"], path: "Tests/TestSupport"),
        // One test target per module: the core's tests link neither PROJ nor GEOS.
        .testTarget(
            name: "GeoAnchorKitTests",
            dependencies: ["GeoAnchorKit", "GeoAnchorKitSimulation", "GeoAnchorKitTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "GeoAnchorKitPROJTests", dependencies: ["GeoAnchorKit", "GeoAnchorKitPROJ", "CProj", "GeoAnchorKitTestSupport"]),
        .testTarget(name: "GeoAnchorKitGEOSTests",
                    dependencies: ["GeoAnchorKit", "GeoAnchorKitGEOS", "GeoAnchorKitPROJ", "GeoAnchorKitSimulation", "GeoAnchorKitTestSupport"]),
        .testTarget(name: "geobenchTests", dependencies: ["GeoAnchorKit", "GeoAnchorKitSimulation", "GeoAnchorKitTestSupport"]),
    ]
)
