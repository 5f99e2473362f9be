// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that `swift test` in the project root
// does not build package-benchmark. Run them with `scripts/benchmark.sh`.

/// One suite: an executable in Benchmarks/NAME on BenchmarkSupport, WebImage and
/// package-benchmark, plus the `extra` dependencies it names.
func benchmark(_ name: String, using extra: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "BenchmarkSupport",
            .product(name: "WebImage", package: "SwiftWebImage"),
            .product(name: "Benchmark", package: "benchmark"),
        ] + extra,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

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
        benchmark("CoderBenchmarks"),
        benchmark("CacheBenchmarks"),
        benchmark(
            "LoadingBenchmarks",
            using: [
                .product(name: "LoopbackHTTPServer", package: "SwiftWebImage"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        benchmark("TIFFBenchmarks"),
        benchmark("AVIFBenchmarks"),
        benchmark("HEIFBenchmarks"),
        benchmark("JXLBenchmarks"),
    ],
    swiftLanguageModes: [.v6]
)
