// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that `swift test` in the project root
// does not build package-benchmark. Run them with `scripts/benchmark.sh`.
let package = Package(
    name: "SwiftWebImageBenchmarks",
    dependencies: [
        .package(name: "SwiftWebImage", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")]
        ),
        .executableTarget(
            name: "CoderBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "WebImage", package: "SwiftWebImage"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CoderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CacheBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "WebImage", package: "SwiftWebImage"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CacheBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LoadingBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "WebImage", package: "SwiftWebImage"),
                .product(name: "LoopbackHTTPServer", package: "SwiftWebImage"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LoadingBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TIFFBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "WebImage", package: "SwiftWebImage"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TIFFBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "AVIFBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "WebImage", package: "SwiftWebImage"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/AVIFBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "HEIFBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "WebImage", package: "SwiftWebImage"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/HEIFBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "JXLBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "WebImage", package: "SwiftWebImage"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/JXLBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
