import Glibc

/// Asks whether something listens on a TCP port of 127.0.0.1, by connecting and closing at
/// once: the event a test waits for when a server stops accepting (its listening socket
/// closes as its graceful shutdown begins).
package enum LoopbackPortProbe {
    /// Whether a connection to `port` on 127.0.0.1 is accepted now.
    package static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                connect(descriptor, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
