// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that `swift test` in the project root
// does not build package-benchmark. Run them with `scripts/benchmark.sh`.
let package = Package(
    name: "SwiftWebImageBenchmarks",
    dependencies: [
        .package(name: "SwiftWebImage", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CoderBenchmarks",
            dependencies: [
                .product(name: "WebImage", package: "SwiftWebImage"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CoderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
