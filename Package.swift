// swift-tools-version: 6.2
import PackageDescription

// MARK: - Products of other packages used by several targets

let nioConcurrencyHelpers: Target.Dependency = .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
let nioCore: Target.Dependency = .product(name: "NIOCore", package: "swift-nio")
let nioPosix: Target.Dependency = .product(name: "NIOPosix", package: "swift-nio")
let nioHTTP1: Target.Dependency = .product(name: "NIOHTTP1", package: "swift-nio")
let nioFoundationCompat: Target.Dependency = .product(name: "NIOFoundationCompat", package: "swift-nio")
let nioSSL: Target.Dependency = .product(name: "NIOSSL", package: "swift-nio-ssl")
let asyncHTTPClient: Target.Dependency = .product(name: "AsyncHTTPClient", package: "async-http-client")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let coreMetrics: Target.Dependency = .product(name: "CoreMetrics", package: "swift-metrics")

/// The codec targets every layer above WebImageCore builds on; the optional ones only with their trait.
let codecs: [Target.Dependency] = [
    "WebImageJPEG", "WebImagePNG", "WebImageGIF", "WebImageWebP", "WebImageBMP",
    .target(name: "WebImageTIFF", condition: .when(traits: ["TIFF"])),
    .target(name: "WebImageAVIF", condition: .when(traits: ["AVIF"])),
    .target(name: "WebImageHEIF", condition: .when(traits: ["HEIF"])),
    .target(name: "WebImageJXL", condition: .when(traits: ["JXL"])),
    .target(name: "WebImageSVG", condition: .when(traits: ["SVG"])),
]

/// Little CMS's colour engine, with the `ColorManagement` trait.
let colorManagement: Target.Dependency = .target(name: "WebImageColor", condition: .when(traits: ["ColorManagement"]))

/// Compiled optimised in debug builds too: the targets whose work is pixel and byte loops
/// (WebImageCore's resampling, blending and packing; WebImageProcessing's blurs, turns, trims
/// and smart crops; the GIF coder's quantiser and LZW; the PNG coder's row filters and unfilters; the cache stress tool's payloads).
/// Unoptimised, under ThreadSanitizer, they took about a quarter of the test suite's CPU,
/// resizing alone a tenth, and the integer blur became the largest single cost while it was
/// compiled with the loader. ThreadSanitizer instruments optimised code as well; WebImageCore,
/// WebImageProcessing and the GIF and PNG coders have no concurrency of their own beyond locks and
/// `DispatchQueue.concurrentPerform`, and the stress tool's own code only makes payloads. The rest of the graph (the manager, caches, downloader, server and
/// SwiftNIO) stays unoptimised in the test build.
let optimisedAlways: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// What every test target builds on: the support code that needs no HTTP stack.
let testSupport: [Target.Dependency] = ["WebImageTestSupport", nioConcurrencyHelpers]

/// What the tests above the codecs build on: a loopback HTTP server and the loading harnesses.
let loadingTestSupport: [Target.Dependency] = testSupport + ["WebImageLoadingTestSupport", "LoopbackHTTPServer", "WebImage"]

let package = Package(
    name: "SwiftWebImage",
    products: [
        .library(name: "WebImage", targets: ["WebImage"]),
        .library(name: "WebImageProcessing", targets: ["WebImageProcessing"]),
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        // The coders alone, for Fuzz/ (which must not build the HTTP stack).
        .library(name: "WebImageJPEG", targets: ["WebImageJPEG"]),
        .library(name: "WebImagePNG", targets: ["WebImagePNG"]),
        .library(name: "WebImageGIF", targets: ["WebImageGIF"]),
        .library(name: "WebImageWebP", targets: ["WebImageWebP"]),
        .library(name: "WebImageCoders", targets: ["WebImageCoders"]),
        .library(name: "WebImageConversion", targets: ["WebImageConversion"]),
        .library(name: "WebImageTerminal", targets: ["WebImageTerminal"]),
        .executable(name: "webimage", targets: ["webimage"]),
        .library(name: "LoopbackHTTPServer", targets: ["LoopbackHTTPServer"]),
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
    ],
    traits: [
        .default(enabledTraits: ["Server", "TIFF", "AVIF", "HEIF", "JXL", "SVG", "ColorManagement"]),
        .init(
            name: "Server",
            description: "The image server, `webimage serve` (Hummingbird and swift-prometheus); the demo builds without it."
        ),
        .init(name: "TIFF", description: "Decode and encode TIFF with the system's libtiff (apt: libtiff-dev)."),
        .init(name: "AVIF", description: "Decode and encode AVIF with the system's libavif (apt: libavif-dev)."),
        .init(
            name: "HEIF",
            description: "Decode HEIC/HEIF, and encode HEIC where it has an encoder, with the system's libheif (apt: libheif-dev)."
        ),
        .init(name: "JXL", description: "Decode and encode JPEG XL with the system's libjxl (apt: libjxl-dev)."),
        .init(
            name: "SVG",
            description:
                "Render SVG, with no external resources, with the system's librsvg and cairo, after screening the markup with libxml2 (apt: librsvg2-dev, libxml2-dev)."
        ),
        .init(
            name: "ColorManagement",
            description: "Read, convert and write ICC colour profiles with the system's Little CMS 2 (apt: liblcms2-dev)."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        // The server's spans (already in the graph through Hummingbird).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        // MARK: C libraries

        .systemLibrary(name: "CJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(name: "CJPEGShim", linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CHEIF", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
        .systemLibrary(name: "CRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CLCMS", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CXattr"),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CSpawn"),

        // MARK: Image model and codecs

        .target(name: "WebImageColor", dependencies: ["CLCMS"]),
        .target(name: "WebImageCore", dependencies: [nioConcurrencyHelpers, colorManagement], swiftSettings: optimisedAlways),
        .target(name: "WebImageJPEG", dependencies: ["WebImageCore", "CJPEG", "CJPEGShim", colorManagement]),
        .target(name: "WebImagePNG", dependencies: ["WebImageCore", "CPNG", "CDeflate"], swiftSettings: optimisedAlways),
        .target(name: "WebImageGIF", dependencies: ["WebImageCore", "CGIF"], swiftSettings: optimisedAlways),
        .target(name: "WebImageWebP", dependencies: ["WebImageCore", "CWebP"]),
        .target(name: "WebImageBMP", dependencies: ["WebImageCore", "WebImagePNG"]),
        .target(name: "WebImageTIFF", dependencies: ["WebImageCore", "CTIFF", colorManagement]),
        .target(name: "WebImageAVIF", dependencies: ["WebImageCore", "CAVIF"]),
        .target(name: "WebImageHEIF", dependencies: ["WebImageCore", "CHEIF"]),
        .target(name: "WebImageJXL", dependencies: ["WebImageCore", "WebImageJPEG", "CJXL"]),
        // The PNG, JPEG and GIF coders read the sizes of the images an SVG embeds as data: URLs.
        .target(name: "WebImageSVG", dependencies: ["WebImageCore", "WebImagePNG", "WebImageJPEG", "WebImageGIF", "CRSVG", "CXML2"]),
        .target(name: "WebImageCoders", dependencies: ["WebImageCore"] + codecs),
        .target(name: "WebImageConversion", dependencies: ["WebImageCore", "WebImageJPEG", "WebImagePNG", nioConcurrencyHelpers]),

        // MARK: Processing

        // Transformers, filters, smart crop and the transform spec: pixel loops, compiled optimised
        // in every build. The built-in coders name the formats `format=` accepts; JPEG for lossless
        // turns; JPEG XL for lossless recompression.
        .target(
            name: "WebImageProcessing",
            dependencies: ["WebImageCore", "WebImageCoders", "WebImageJPEG", .target(name: "WebImageJXL", condition: .when(traits: ["JXL"]))],
            swiftSettings: optimisedAlways
        ),

        // MARK: Library

        .target(
            name: "WebImage",
            dependencies: [
                "WebImageCore", "WebImageCoders", "WebImageProcessing", "CXattr", "CMalloc", nioConcurrencyHelpers, asyncHTTPClient,
                nioCore, nioPosix, nioHTTP1, nioFoundationCompat, nioSSL, logging, coreMetrics,
            ]
                + codecs
        ),
        .target(name: "WebImageTerminal", dependencies: ["WebImage", nioConcurrencyHelpers]),
        .target(name: "LoopbackHTTPServer", dependencies: [nioConcurrencyHelpers, nioCore, nioPosix, nioHTTP1, nioSSL]),
        .target(
            name: "WebImageServer",
            dependencies: [
                "WebImage", "WebImageProcessing", "CSpawn", nioConcurrencyHelpers, logging, coreMetrics, asyncHTTPClient,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),

        // MARK: Apps

        .executableTarget(
            name: "webimage",
            dependencies: [
                "WebImage", "WebImageProcessing", "WebImageConversion", "WebImageTerminal", "LoopbackHTTPServer",
                .target(name: "WebImageServer", condition: .when(traits: ["Server"])),
                // `webimage serve` reads its settings from flags, the environment and a JSON file.
                .product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Server"])),
                // It bootstraps the tracer of the server's spans when OTEL_TRACES_EXPORTER=otlp.
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Server"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "CacheStressTool", dependencies: ["WebImage"], path: "Tests/CacheStressTool", swiftSettings: optimisedAlways),
        // A child process that decodes one file and reports the peak memory the decode added.
        .executableTarget(name: "DecodePeakTool", dependencies: ["WebImageCoders"], path: "Tests/DecodePeakTool"),

        // MARK: Tests

        .target(name: "WebImageTestSupport", dependencies: ["WebImageCore", "WebImagePNG", "WebImageGIF", nioConcurrencyHelpers], path: "Tests/WebImageTestSupport"),
        .target(
            name: "WebImageLoadingTestSupport",
            dependencies: [
                "WebImageTestSupport", "WebImage", "LoopbackHTTPServer", nioConcurrencyHelpers, nioCore, nioHTTP1, asyncHTTPClient, logging, coreMetrics,
            ],
            path: "Tests/WebImageLoadingTestSupport"
        ),
        .target(
            name: "WebImageServerTestSupport",
            dependencies: ["WebImageServer", .product(name: "Tracing", package: "swift-distributed-tracing")] + loadingTestSupport,
            path: "Tests/WebImageServerTestSupport"
        ),
        .testTarget(
            name: "WebImageCodecTests",
            // The colour tests hold our output to Little CMS's own transforms.
            dependencies: ["WebImageCore", "WebImageCoders", "WebImageConversion", "CJPEG", "CPNG", colorManagement]
                + [.target(name: "CLCMS", condition: .when(traits: ["ColorManagement"]))] + codecs + testSupport
        ),
        .testTarget(name: "WebImageTests", dependencies: loadingTestSupport + ["WebImageProcessing", "WebImageJPEG", nioCore, logging, coreMetrics]),
        .testTarget(name: "WebImageTerminalTests", dependencies: loadingTestSupport + ["WebImageTerminal"]),
        .testTarget(
            name: "WebImageServerTests",
            dependencies: loadingTestSupport + [
                "WebImageServer", "WebImageServerTestSupport", asyncHTTPClient, nioCore, nioHTTP1,
                // An application's own router mounting the server's routes; an OTLP receiver.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .testTarget(
            name: "WebImageCLITests",
            dependencies: loadingTestSupport + [
                "webimage", "WebImageConversion", "CacheStressTool", "DecodePeakTool", "WebImageServer", "WebImageServerTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
