// swift-tools-version: 6.2
import PackageDescription

// The tests that call C libraries, in their own package so that AddressSanitizer builds
// only them: on Linux `swift test` links every test target of a package into one binary,
// and in the project root that means the whole HTTP stack. `scripts/test-asan.sh` runs
// this package with `--sanitize=address`.
//
// The test targets are the root's own folders, reached through symbolic links in Tests/:
// WebImageCodecTests (the coders, the streaming converter, the colour tests) and the
// WebImageTestSupport it builds on. The root's coders come through its products; the
// modules the tests import and no product names (WebImageTIFF, CJPEG, CLCMS, …) are
// the products' own dependencies, built with the root's default traits.
let package = Package(
    name: "SwiftWebImageSanitizers",
    dependencies: [
        .package(name: "SwiftWebImage", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "WebImageTestSupport",
            dependencies: [
                .product(name: "WebImageCore", package: "SwiftWebImage"),
                .product(name: "WebImagePNG", package: "SwiftWebImage"),
                .product(name: "WebImageGIF", package: "SwiftWebImage"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/WebImageTestSupport",
            // The tests that run the webimage tool are off here: this package builds none.
            swiftSettings: [.define("WITHOUT_WEBIMAGE_TOOL")]
        ),
        .testTarget(
            name: "WebImageCodecTests",
            dependencies: [
                "WebImageTestSupport",
                .product(name: "WebImageCore", package: "SwiftWebImage"),
                .product(name: "WebImageCoders", package: "SwiftWebImage"),
                .product(name: "WebImageConversion", package: "SwiftWebImage"),
                .product(name: "WebImageJPEG", package: "SwiftWebImage"),
                .product(name: "WebImagePNG", package: "SwiftWebImage"),
                .product(name: "WebImageGIF", package: "SwiftWebImage"),
                .product(name: "WebImageWebP", package: "SwiftWebImage"),
            ],
            path: "Tests/WebImageCodecTests",
            // The root's default traits, which the tests' `#if`s name.
            swiftSettings: [.define("TIFF"), .define("AVIF"), .define("HEIF"), .define("JXL"), .define("SVG"), .define("ColorManagement")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
