// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "SwiftWebImage",
    products: [
        .library(name: "WebImage", targets: ["WebImage"]),
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        // The coders alone, for Fuzz/ (which must not build the HTTP stack).
        .library(name: "WebImageJPEG", targets: ["WebImageJPEG"]),
        .library(name: "WebImagePNG", targets: ["WebImagePNG"]),
        .library(name: "WebImageGIF", targets: ["WebImageGIF"]),
        .library(name: "WebImageWebP", targets: ["WebImageWebP"]),
        .library(name: "WebImageTerminal", targets: ["WebImageTerminal"]),
        .executable(name: "webimage", targets: ["webimage"]),
        .library(name: "LoopbackHTTPServer", targets: ["LoopbackHTTPServer"]),
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .target(
            name: "CJPEGShim",
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "spng",
            providers: [.apt(["libspng-dev"])]
        ),
        .systemLibrary(
            name: "CGIF",
            providers: [.apt(["libgif-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]
        ),
        .systemLibrary(name: "CXattr"),
        .target(
            name: "WebImageCore",
            dependencies: [.product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),
        .target(name: "WebImageJPEG", dependencies: ["WebImageCore", "CJPEG", "CJPEGShim"]),
        .target(name: "WebImagePNG", dependencies: ["WebImageCore", "CPNG"]),
        .target(name: "WebImageGIF", dependencies: ["WebImageCore", "CGIF"]),
        .target(name: "WebImageWebP", dependencies: ["WebImageCore", "CWebP"]),
        .target(
            name: "WebImage",
            dependencies: [
                "WebImageCore", "WebImageJPEG", "WebImagePNG", "WebImageGIF", "WebImageWebP", "CXattr",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "WebImageTerminal",
            dependencies: ["WebImage", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),
        .target(
            name: "LoopbackHTTPServer",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "WebImageServer",
            dependencies: [
                "WebImage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "webimage",
            dependencies: [
                "WebImage",
                "WebImageServer",
                "WebImageTerminal",
                "LoopbackHTTPServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "CacheStressTool",
            dependencies: ["WebImage"],
            path: "Tests/CacheStressTool"
        ),
        .testTarget(
            name: "WebImageTests",
            dependencies: [
                "WebImage",
                "WebImageServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                "WebImageTerminal",
                "CacheStressTool",
                "webimage",
                "LoopbackHTTPServer",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: - BMP and ICO (always built) and TIFF (the `TIFF` trait, on by default)

package.traits.formUnion([
    .default(enabledTraits: ["TIFF", "AVIF", "HEIF", "JXL"]),
    .init(name: "TIFF", description: "Decode and encode TIFF with the system's libtiff (apt: libtiff-dev)."),
])
package.targets += [
    .target(name: "WebImageBMP", dependencies: ["WebImageCore", "WebImagePNG"]),
    .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
    .target(name: "WebImageTIFF", dependencies: ["WebImageCore", "CTIFF"]),
]
for name in ["WebImage", "WebImageTests"] {
    package.targets.first { $0.name == name }?.dependencies += [
        "WebImageBMP",
        .target(name: "WebImageTIFF", condition: .when(traits: ["TIFF"])),
    ]
}

// MARK: - AVIF, HEIF and JPEG XL (the `AVIF`, `HEIF` and `JXL` traits, on by default)

package.traits.formUnion([
    .init(name: "AVIF", description: "Decode and encode AVIF with the system's libavif (apt: libavif-dev)."),
    .init(name: "HEIF", description: "Decode HEIC/HEIF, and encode HEIC where it has an encoder, with the system's libheif (apt: libheif-dev)."),
    .init(name: "JXL", description: "Decode and encode JPEG XL with the system's libjxl (apt: libjxl-dev)."),
])
package.targets += [
    .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
    .target(name: "WebImageAVIF", dependencies: ["WebImageCore", "CAVIF"]),
    .systemLibrary(name: "CHEIF", providers: [.apt(["libheif-dev"])]),
    .target(name: "WebImageHEIF", dependencies: ["WebImageCore", "CHEIF"]),
    .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
    .target(name: "WebImageJXL", dependencies: ["WebImageCore", "CJXL"]),
]
for name in ["WebImage", "WebImageTests"] {
    package.targets.first { $0.name == name }?.dependencies += [
        .target(name: "WebImageAVIF", condition: .when(traits: ["AVIF"])),
        .target(name: "WebImageHEIF", condition: .when(traits: ["HEIF"])),
        .target(name: "WebImageJXL", condition: .when(traits: ["JXL"])),
    ]
}
