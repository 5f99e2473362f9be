import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Decides whether the server may fetch a source URL: `http` or `https`, a host on the
/// allowed list (when there is one), and — unless private sources are allowed — a host
/// whose every address is public (not loopback, private, link-local, unspecified or
/// multicast), so that a signed URL cannot reach the server's own network.
struct SourceAddressPolicy: Sendable {
    /// The hosts allowed; empty allows any.
    let allowedHosts: Set<String>
    /// Whether private addresses may be fetched.
    let allowsPrivateAddresses: Bool

    /// Checks `url`, resolving its host on the calling thread (call it off the event loops).
    ///
    /// - Throws: ``ImageServerError`` 400 for a URL that is not http(s) or has no host,
    ///   403 for a host that is not allowed or resolves to a private address, 502 for a
    ///   host that does not resolve.
    func check(_ url: URL) throws(ImageServerError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else {
            throw ImageServerError(.badRequest, "the source must be an http or https URL with a host")
        }
        let bareHost = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if !allowedHosts.isEmpty, !allowedHosts.contains(bareHost) {
            throw ImageServerError(.forbidden, "the source host \(bareHost) is not allowed")
        }
        guard !allowsPrivateAddresses else { return }
        let addresses = Self.resolve(bareHost)
        guard !addresses.isEmpty else {
            throw ImageServerError(.badGateway, "the source host \(bareHost) does not resolve")
        }
        if let address = addresses.first(where: { !$0.isPublic }) {
            throw ImageServerError(.forbidden, "the source host \(bareHost) resolves to a private address (\(address))")
        }
    }

    /// Every address `host` resolves to.
    static func resolve(_ host: String) -> [IPAddress] {
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
