// swift-tools-version:6.1
import PackageDescription

// What an app writes: a client of the GeoAnchorKit library product alone (no PROJ, no GEOS, no
// command-line tool), in the Swift 6 language mode. CI builds it with warnings as errors and runs
// its tests (scripts/test).
let package = Package(
    name: "TourApp",
    platforms: [.macOS(.v13), .iOS(.v16), .visionOS(.v1)],
    products: [.library(name: "TourAppCore", targets: ["TourAppCore"])],
    // `traits: []`: only the core is resolved and built (no command-line tool dependencies).
    dependencies: [.package(name: "GeoAnchorKit", path: "../..", traits: [])],
    targets: [
        // The app ships a small excerpt of the EGM96 geoid (scripts/dev/geoid_excerpt.py) as a
        // bundle resource: MSL heights (maps, CoreLocation's altitude) become ellipsoidal through it.
        .target(name: "TourAppCore", dependencies: [.product(name: "GeoAnchorKit", package: "GeoAnchorKit")],
                resources: [.copy("Resources/egm96-prague.gtx")]),
        .testTarget(name: "TourAppCoreTests", dependencies: ["TourAppCore"]),
    ],
    swiftLanguageModes: [.v6]
)
