import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns a source's host name into addresses for the image server's address policy. The
/// server connects only to an address this answered and the policy checked, so the name
/// is resolved once per connection, never again behind the check's back.
///
/// ``system`` asks the operating system's resolver (`getaddrinfo`); tests and embedders may
/// give their own.
public struct SourceHostResolver: Sendable {
    private let resolve: @Sendable (String) async -> [String]

    /// A resolver answering with `resolve`: the addresses of a host name, as IPv4 dotted or
    /// IPv6 text; text that is not an address is ignored, and no address means the host
    /// does not resolve.
    public init(_ resolve: @escaping @Sendable (String) async -> [String]) {
        self.resolve = resolve
    }

    /// The operating system's resolver, run on a small pool of its own (8 threads, not the
    /// blocking-I/O threads the server's disk work uses), each lookup answering no
    /// addresses — "does not resolve" — after 5 seconds, or at once while 64 lookups are
    /// already pending or 2 for names of the same registrable domain.
    public static let system = SourceHostResolver { host in
        await HostLookupPool.shared.run(host) { SourceHostResolver.systemAddresses(of: $0).map(\.description) }
    }

    /// The addresses `host` resolves to.
    func addresses(of host: String) async -> [IPAddress] {
        await resolve(host).compactMap(IPAddress.init)
    }

    /// Every address `host` resolves to, by `getaddrinfo` on the calling thread.
    private static func systemAddresses(of host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = entry.pointee.ai_addr.flatMap(IPAddress.init(socketAddress:)) {
                addresses.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }
}
