// swift-tools-version: 5.4
import PackageDescription

// libFuzzer targets, one per coder, in their own package so that `swift build` and
// `swift test` in the project root never build them. `scripts/fuzz.sh` builds them with
// `-sanitize=fuzzer,address` and runs each for a few minutes, seeded from the corpora.
//
// Tools version 5.4 on purpose: from 5.5 on, SwiftPM links an executable's `main` to
// `<Target>_main` (so tests can link executables), which clashes with the `main` that
// libFuzzer brings; below 5.5 libFuzzer's `main` is used as it is.
let package = Package(
    name: "SwiftWebImageFuzz",
    dependencies: [
        .package(name: "SwiftWebImage", path: "..")
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "WebImageCore", package: "SwiftWebImage"),
                .product(name: "WebImageJPEG", package: "SwiftWebImage"),
                .product(name: "WebImagePNG", package: "SwiftWebImage"),
                .product(name: "WebImageGIF", package: "SwiftWebImage"),
                .product(name: "WebImageWebP", package: "SwiftWebImage"),
            ]
        ),
        .executableTarget(name: "FuzzJPEG", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzGIF", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzWebP", dependencies: ["FuzzSupport"]),
    ]
)
