// swift-tools-version: 6.2
import PackageDescription

// libFuzzer targets, one per coder, in their own package so that `swift build` and
// `swift test` in the project root never build them. `scripts/fuzz.sh` builds them with
// `-sanitize=fuzzer,address` and runs each for a few minutes, seeded from the corpora.
let package = Package(
    name: "SwiftWebImageFuzz",
    dependencies: [
        .package(name: "SwiftWebImage", path: ".."),
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
    ],
    swiftLanguageModes: [.v6]
)
