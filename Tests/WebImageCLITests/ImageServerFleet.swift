import Foundation
import Testing
import WebImageTestSupport
import WebImageLoadingTestSupport

/// `webimage serve` instances behind nginx with deploy/nginx.conf, as scripts/fleet.sh runs
/// them, in a temporary folder: each instance keeps its own cache, and nginx routes by a
/// consistent hash of the source and keeps results in its own cache.
final class ImageServerFleet: @unchecked Sendable {
    /// nginx's binary, where Debian installs it; `nil` when it is not installed.
    static let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    private static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// How long nginx sets aside an instance it could not reach, in seconds: the
    /// `fail_timeout` of deploy/nginx.conf's upstream servers (nginx's default).
    static let failTimeout = 10

    /// The port nginx listens on (127.0.0.1).
    let port: Int
    /// The instances' ports, in the order they were started.
    let instancePorts: [Int]
    private let scratch = TemporaryDirectory(prefix: "fleet")
    private let arguments: [String]
    private var instances: [BackgroundProcess] = []
    private let proxy: BackgroundProcess

    /// Starts `count` instances, each with `arguments` beside its port and cache folder,
    /// and nginx in front of them; returns once each instance listens (nginx may take a
    /// moment more: see ``ImageServerClient/waitUntilReachable(port:)``).
    init(instances count: Int, arguments: [String]) async throws {
        self.arguments = arguments
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.url.path)
        var ports: [Int] = []
        for index in 0..<count {
            let (instance, port) = try await Self.startInstance(index, port: 0, arguments: arguments, scratch: scratch)
            instances.append(instance)
            ports.append(port)
        }
        instancePorts = ports
        // A port that was free a moment ago, released for nginx to take.
        port = try RefusingPort().port
        let template = try String(contentsOf: Self.projectRoot.appendingPathComponent("deploy/nginx.conf"), encoding: .utf8)
        let configuration =
            template
            .replacingOccurrences(of: "@RUN_DIR@", with: scratch.url.path)
            .replacingOccurrences(of: "@LISTEN@", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "@UPSTREAMS@\n", with: ports.map { "        server 127.0.0.1:\($0);\n" }.joined())
        try configuration.write(to: scratch.appending("nginx.conf"), atomically: true, encoding: .utf8)
        proxy = try BackgroundProcess(
            URL(fileURLWithPath: try #require(Self.nginx)), ["-c", scratch.appending("nginx.conf").path, "-p", scratch.url.path])
    }

    /// Stops instance `index` with SIGTERM (it drains its requests in flight), waits for it
    /// to exit, and starts it again on the same port; returns the exit status of the stop.
    func restart(_ index: Int) async throws -> Int32 {
        let status = await instances[index].stop()
        let (instance, _) = try await Self.startInstance(index, port: instancePorts[index], arguments: arguments, scratch: scratch)
        instances[index] = instance
        return status
    }

    /// Stops nginx, then every instance; returns the instances' exit statuses.
    @discardableResult
    func stop() async -> [Int32] {
        await proxy.stop()
        var statuses: [Int32] = []
        for instance in instances { statuses.append(await instance.stop()) }
        return statuses
    }

    private static func startInstance(
        _ index: Int, port: Int, arguments: [String], scratch: TemporaryDirectory
    ) async throws -> (BackgroundProcess, Int) {
        let instance = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            ["serve", "--port", "\(port)", "--cache-dir", scratch.appending("instance-\(index)").path] + arguments)
        let line = try await instance.waitForLine(containing: "listening on")
        return (instance, try #require(line.split(separator: ":").last.flatMap { Int($0) }))
    }
}
